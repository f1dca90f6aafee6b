// The shared request body: wire shapes and the reasoning echo rule of tool-calling segments.
import { describe, expect, it } from 'vitest'
import type { AssistantMessage, Message, ToolResultMessage } from '@dsh/contracts'
import { buildChatRequestBody, createUserMessage } from '../src/index.ts'

const user = (text: string): Message => createUserMessage({ text, source: { kind: 'user' } })
const assistant = (text: string, reasoning: string, call?: string): AssistantMessage => ({
  id: `a-${text}`,
  role: 'assistant',
  source: { kind: 'model' },
  content: [{ type: 'reasoning', text: reasoning }, ...(text === '' ? [] : [{ type: 'text' as const, text }]), ...(call === undefined ? [] : [{ type: 'tool-call' as const, callId: call, name: 'read', arguments: '{}' }])],
})
const result = (call: string): ToolResultMessage => ({ id: `r-${call}`, role: 'tool', callId: call, toolName: 'read', isError: false, content: [{ type: 'text', text: 'ok' }], source: { kind: 'tool' } })

const history: Message[] = [user('q1'), assistant('plain answer', 'r0'), user('q2'), assistant('', 'r1', 'c1'), result('c1'), assistant('done', 'r2'), user('q3')]

describe('buildChatRequestBody', () => {
  it('sends no reasoning unless the provider asks for it', () => {
    const body = buildChatRequestBody({ model: 'm', system: 'sys', messages: history, tools: [] })
    expect(JSON.stringify(body)).not.toContain('reasoning_content')
    expect(body).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'q1' },
        { role: 'assistant', content: 'plain answer' },
        { role: 'user', content: 'q2' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'ok' },
        { role: 'assistant', content: 'done' },
        { role: 'user', content: 'q3' },
      ],
    })
  })

  it('tool-segments: every assistant message between two user messages where a tool was called carries its reasoning, others do not', () => {
    const body = buildChatRequestBody({ model: 'm', system: 'sys', messages: history, tools: [], reasoningEcho: 'tool-segments' })
    const reasoning = body.messages.map((message) => (message.role === 'assistant' ? (message.reasoning_content ?? null) : undefined)).filter((value) => value !== undefined)
    expect(reasoning).toEqual([null, 'r1', 'r2'])
  })
})
