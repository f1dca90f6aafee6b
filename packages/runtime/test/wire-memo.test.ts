// Request bodies built through the per-agent wire memo: the same body as without it, each message
// converted once however many requests carry it, and a size equal to the serialised body's.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Message, WireTool } from '@dsh/contracts'
import { buildChatRequestBody, requestJsonLength, WireMemo } from '../src/index.ts'

const text = fc.string({ unit: 'binary', maxLength: 40 })
const callId = fc.stringMatching(/^c[0-9]{1,3}$/)

const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ text, kind: fc.constantFrom('user' as const, 'plugin' as const) }).map(({ text: body, kind }): Message => ({
    id: 'u',
    role: 'user',
    content: [{ type: 'text', text: body }],
    source: kind === 'user' ? { kind: 'user' } : { kind: 'plugin', plugin: 'p', form: 'notice' },
  })),
  fc.record({ text, reasoning: text, calls: fc.array(fc.record({ callId, args: text }), { maxLength: 2 }) }).map(({ text: body, reasoning, calls }): Message => ({
    id: 'a',
    role: 'assistant',
    source: { kind: 'model' },
    content: [{ type: 'reasoning', text: reasoning }, ...(body === '' ? [] : [{ type: 'text' as const, text: body }]), ...calls.map((call) => ({ type: 'tool-call' as const, callId: call.callId, name: 'read', arguments: call.args }))],
  })),
  fc.record({ text, callId }).map(({ text: body, callId: id }): Message => ({ id: 't', role: 'tool', callId: id, toolName: 'read', isError: false, content: [{ type: 'text', text: body }], source: { kind: 'tool' } })),
)

const tools: WireTool[] = [{ type: 'function', function: { name: 'read', description: 'Reads "files".', parameters: { type: 'object', properties: { file_path: { type: 'string' } } } } }]

describe('WireMemo', () => {
  it('builds the same bodies as without a memo, and measures them as JSON.stringify does without building them', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), fc.nat(12), text, fc.boolean(), fc.boolean(), (history, cut, system, echo, withTools) => {
        const memo = new WireMemo()
        // Two requests of a growing history share one memo, as the steps of an agent do.
        for (const messages of [history.slice(0, cut), history]) {
          const input = { model: 'm', system, messages, tools: withTools ? tools : [], ...(echo ? { reasoningEcho: 'with-tools' as const } : {}) }
          // Measured before and after the body is built, as a step measures before building it.
          expect(requestJsonLength({ ...input, memo })).toBe(JSON.stringify(buildChatRequestBody(input)).length)
          const body = buildChatRequestBody({ ...input, memo })
          expect(body).toEqual(buildChatRequestBody(input))
          expect(requestJsonLength({ ...input, memo })).toBe(JSON.stringify(body).length)
        }
      }),
    )
  })

  it('converts each message once: later requests carry the same wire messages', () => {
    const memo = new WireMemo()
    const history: Message[] = [
      { id: 'u1', role: 'user', content: [{ type: 'text', text: 'q' }], source: { kind: 'user' } },
      { id: 'a1', role: 'assistant', content: [{ type: 'tool-call', callId: 'c1', name: 'read', arguments: '{}' }], source: { kind: 'model' } },
      { id: 't1', role: 'tool', callId: 'c1', toolName: 'read', isError: false, content: [{ type: 'text', text: 'ok' }], source: { kind: 'tool' } },
    ]
    const first = buildChatRequestBody({ model: 'm', system: 's', messages: history.slice(0, 2), tools, memo })
    const second = buildChatRequestBody({ model: 'm', system: 's', messages: history, tools, memo })
    expect(second.messages[1]).toBe(first.messages[1])
    expect(second.messages[2]).toBe(first.messages[2])
    expect(second.messages[3]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'ok' })
  })
})
