// Tools turned off for a session: the filtered list is exactly the tools no hidden prefix covers,
// the same array while nothing changed (cacheable prefix), and hide/show are a set — fast-check.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { WireTool } from '@dsh/contracts'
import { ToolVisibility } from '../src/tool-visibility.ts'

const wire = (name: string): WireTool => ({ type: 'function', function: { name, description: name, parameters: {} } })
const names = ['bash', 'mcp__a__x', 'mcp__a__y', 'mcp__b__x', 'mcp__ab__z']
const prefixes = ['mcp__a__', 'mcp__b__', 'mcp__ab__']

describe('tool visibility', () => {
  it('hides exactly the prefixes hidden, in any order of hide and show; the list is stable between changes', () => {
    const step = fc.record({ show: fc.boolean(), prefix: fc.constantFrom(...prefixes) })
    fc.assert(
      fc.property(fc.array(step, { maxLength: 20 }), (steps) => {
        const visibility = new ToolVisibility()
        const tools = Object.freeze(names.map(wire))
        const model = new Set<string>()
        for (const { show, prefix } of steps) {
          if (show) expect(visibility.show(prefix)).toBe(model.delete(prefix))
          else {
            expect(visibility.hide({ prefix, enable: `/mcp enable ${prefix}` })).toBe(!model.has(prefix))
            model.add(prefix)
          }
          const shown = visibility.filter(tools)
          expect(shown.map((tool) => tool.function.name)).toEqual(names.filter((name) => ![...model].some((hidden) => name.startsWith(hidden))))
          expect(visibility.filter(tools)).toBe(shown)
          for (const each of prefixes) expect(visibility.isHidden(each)).toBe(model.has(each))
        }
        if (model.size === 0) expect(visibility.filter(tools)).toBe(tools)
      }),
    )
  })

  it('names what turns a hidden tool back on', () => {
    const visibility = new ToolVisibility()
    visibility.hide({ prefix: 'mcp__a__', enable: '/mcp enable a' })
    expect(visibility.hiding('mcp__a__x')).toEqual({ prefix: 'mcp__a__', enable: '/mcp enable a' })
    expect(visibility.hiding('mcp__ab__z')).toBeUndefined()
  })
})
