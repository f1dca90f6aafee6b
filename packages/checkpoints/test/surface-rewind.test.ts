// The conversation half of rewind on the runtime's surface: a rewind marker replaces the nodes from
// a turn to the end; its undo replaces the marker and reinstates them; whatever the surface and
// the cut, the nodes that are not markers come back exactly (property test).
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Surface } from '@dsh/runtime'

describe('rewind on the surface', () => {
  it('undo reinstates exactly the nodes the rewind removed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.nat(), (length, cutSeed) => {
        const surface = new Surface()
        for (let seq = 1; seq <= length; seq++) surface.apply(seq, 'append')
        const before = [...surface.nodes]
        const start = cutSeed % (length + 1)
        const removed = surface.nodes.slice(start)
        const marker = length + 1
        surface.apply(marker, { op: 'replace', start, end: surface.nodes.length })
        expect(surface.nodes).toEqual([...before.slice(0, start), marker])
        const undo = length + 2
        const index = surface.nodes.indexOf(marker)
        surface.apply(undo, { op: 'replace', start: index, end: index + 1, reinstate: removed })
        expect(surface.nodes.filter((seq) => seq !== undo)).toEqual(before)
        expect(surface.replaceGeneration).toBe(2)
      }),
    )
  })

  it('refuses a reinstated seq that is not a positive integer, changing nothing', () => {
    const surface = new Surface()
    surface.apply(1, 'append')
    expect(() => surface.apply(2, { op: 'replace', start: 0, end: 1, reinstate: [0] })).toThrow(RangeError)
    expect(surface.nodes).toEqual([1])
  })
})
