// dsh run's answer filter: whole control sequences go (OSC up to BEL or ST, CSI with parameters,
// DCS, 8-bit C1 forms, lone escapes), newlines and tabs stay; --raw keeps the text off a terminal only.
import { describe, expect, it } from 'vitest'
import { answerForOutput, stripControlSequences } from '../src/terminal-output.ts'

describe('stripControlSequences', () => {
  it('removes sequences whole and keeps newlines and tabs', () => {
    expect(stripControlSequences('a\u001b]52;c;aGk=\u0007b\u001b]0;title\u001b\\c')).toBe('abc')
    expect(stripControlSequences('\u001b[1;31mred\u001b[0m\n\tx\u009b2Jy')).toBe('red\n\txy')
    expect(stripControlSequences('p\u001bPq#0;2\u001b\\q\u001b7r\u0000\u0008\r\u007fs')).toBe('pqrs')
    expect(stripControlSequences('open \u001b]52;c;never ends')).toBe('open ')
    expect(stripControlSequences('ünïcode — ok')).toBe('ünïcode — ok')
  })
  it('keeps the text only off a terminal with --raw', () => {
    const text = '\u001b[31mx'
    expect(answerForOutput(text, { isTerminal: true, raw: true })).toBe('x')
    expect(answerForOutput(text, { isTerminal: false, raw: false })).toBe('x')
    expect(answerForOutput(text, { isTerminal: false, raw: true })).toBe(text)
  })
})
