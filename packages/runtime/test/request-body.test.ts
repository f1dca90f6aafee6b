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

const tools = [{ type: 'function' as const, function: { name: 'read', description: 'Read a file', parameters: { type: 'object' } } }]
const reasoningOf = (messages: readonly { role: string; reasoning_content?: string }[]): (string | null)[] =>
  messages.filter((message) => message.role === 'assistant').map((message) => message.reasoning_content ?? null)

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

  it('with-tools: a request with tools carries the reasoning of every earlier assistant message, across turns and without tool calls', () => {
    const body = buildChatRequestBody({ model: 'm', system: 'sys', messages: history, tools, reasoningEcho: 'with-tools' })
    expect(reasoningOf(body.messages)).toEqual(['r0', 'r1', 'r2'])
  })

  it('with-tools: an assistant message without reasoning (an older session, an interrupted answer) carries ""', () => {
    const bare: AssistantMessage = { id: 'bare', role: 'assistant', source: { kind: 'model' }, content: [{ type: 'text', text: 'old answer' }] }
    const body = buildChatRequestBody({ model: 'm', system: 'sys', messages: [user('q0'), bare, ...history], tools, reasoningEcho: 'with-tools' })
    expect(reasoningOf(body.messages)).toEqual(['', 'r0', 'r1', 'r2'])
    expect(body.messages[2]).toEqual({ role: 'assistant', content: 'old answer', reasoning_content: '' })
  })

  it('with-tools: a request without tools carries no reasoning at all', () => {
    const body = buildChatRequestBody({ model: 'm', system: 'sys', messages: history, tools: [], reasoningEcho: 'with-tools' })
    expect(JSON.stringify(body)).not.toContain('reasoning_content')
  })

  it('replays content, reasoning, call ids and arguments byte for byte as they were streamed', () => {
    const args = '{ "path":"a.txt" ,\n "note": "\\u00e9"}'
    const streamed: AssistantMessage = {
      id: 'raw',
      role: 'assistant',
      source: { kind: 'model' },
      content: [
        { type: 'reasoning', text: '  think\n\n ' },
        { type: 'text', text: 'Let me check… ' },
        { type: 'tool-call', callId: 'call_00_kw66qNnNto11bSfJVIdlV5Oo', name: 'read', arguments: args },
      ],
    }
    const body = buildChatRequestBody({ model: 'm', system: 'sys', messages: [user('q'), streamed], tools, reasoningEcho: 'with-tools' })
    expect(body.messages[2]).toEqual({
      role: 'assistant',
      content: 'Let me check… ',
      tool_calls: [{ id: 'call_00_kw66qNnNto11bSfJVIdlV5Oo', type: 'function', function: { name: 'read', arguments: args } }],
      reasoning_content: '  think\n\n ',
    })
  })
})
