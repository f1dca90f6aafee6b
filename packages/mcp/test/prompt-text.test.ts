// Typed words as an MCP prompt's arguments (by name, in order, the last one taking the rest) and a
// prompts/get result as one user message.
import { describe, expect, it } from 'vitest'
import type { Prompt } from '@modelcontextprotocol/client'
import { argumentHint, promptArguments, promptMessageText } from '../src/prompt-text.ts'

const weather: Prompt = { name: 'weather', arguments: [{ name: 'city', required: true }, { name: 'state' }] }

describe('prompt arguments', () => {
  it('assigns words in order, by name, and gives the last argument the rest', () => {
    expect(promptArguments(weather, 'Paris')).toEqual({ ok: true, args: { city: 'Paris' } })
    expect(promptArguments(weather, 'Salt Lake City Utah')).toEqual({ ok: true, args: { city: 'Salt', state: 'Lake City Utah' } })
    expect(promptArguments(weather, 'state=Utah Salt Lake City')).toEqual({ ok: true, args: { state: 'Utah', city: 'Salt Lake City' } })
    expect(promptArguments(weather, 'city=Austin state=Texas')).toEqual({ ok: true, args: { city: 'Austin', state: 'Texas' } })
  })

  it('names what is missing or too much in one line', () => {
    expect(promptArguments(weather, '  ')).toEqual({ ok: false, problem: 'needs city (<city> [state])' })
    expect(promptArguments({ name: 'plain' }, 'extra words')).toEqual({ ok: false, problem: 'takes no more words (arguments: none)' })
    expect(promptArguments({ name: 'plain' }, '')).toEqual({ ok: true, args: {} })
    expect(argumentHint(weather)).toBe('<city> [state]')
    expect(argumentHint({ name: 'plain' })).toBeUndefined()
  })

  it('joins the messages, introducing one that is not the user\'s by its role', () => {
    const text = promptMessageText({
      messages: [
        { role: 'user', content: { type: 'text', text: 'Review this.' } },
        { role: 'assistant', content: { type: 'text', text: 'Which file?' } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'file:///a.ts', text: 'let a = 1' } } },
      ],
    })
    expect(text).toBe('Review this.\n\n[assistant]\nWhich file?\n\n[resource: file:///a.ts]\nlet a = 1')
  })
})
