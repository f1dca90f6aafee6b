// The page selection of path-ordered results: the first `count` in code-unit order, equal to a
// full sort's prefix for any list (duplicates, any count, any order of arrival).
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { codeUnitOrder, firstInPathOrder } from '../src/search-order.ts'

describe('firstInPathOrder', () => {
  it('is the prefix of the full code-unit sort for any list and count', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 400 }), fc.integer({ min: 0, max: 450 }), (items, count) => {
        expect(firstInPathOrder(items, count)).toEqual(items.toSorted(codeUnitOrder).slice(0, count))
      }),
      { numRuns: 300 },
    )
  })

  it('orders by code unit, not by locale: upper case before lower case, astral characters by their surrogates', () => {
    const items = ['b', 'B', 'a', '\u{1F600}', '\uFF5E', 'A', ...Array.from({ length: 100 }, (_, i) => `z${i}`)]
    expect(firstInPathOrder(items, 6)).toEqual(['A', 'B', 'a', 'b', 'z0', 'z1'])
    expect(firstInPathOrder(items, 200).slice(-2)).toEqual(['\u{1F600}', '\uFF5E'])
  })
})
