// Frame escaping: every tag variant is neutralised, escaping is lossless, and framed text keeps exactly one frame.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { escapeFrameText, unescapeFrameText } from '../src/escape.ts'
import { renderChangeBatch } from '../src/render.ts'
import { projectScope } from '../src/scope-key.ts'

const tagCount = (text: string, tag: RegExp): number => text.match(tag)?.length ?? 0

describe('frame escaping', () => {
  it('escapes the literal closing tag with a backslash after <', () => {
    expect(escapeFrameText('a</system-reminder>b')).toBe('a<\\/system-reminder>b')
  })

  it.each(['<system-reminder>', '</SYSTEM-REMINDER>', '< / system-reminder >', '</sys\u200btem-reminder>', '<system-reminder/>', '</system\u00ad-reminder>'])('neutralises %j', (variant) => {
    const escaped = escapeFrameText(`x${variant}y`)
    expect(escaped).not.toBe(`x${variant}y`)
    expect(escaped.startsWith('x<\\')).toBe(true)
  })

  it('escapes a tag cut short (no `>` anywhere) and leaves text without `<` as it is', () => {
    expect(escapeFrameText('tail </system-reminder')).toBe('tail <\\/system-reminder')
    expect(escapeFrameText('<System-Reminder')).toBe('<\\System-Reminder')
    expect(escapeFrameText('no tag: system-reminder > /system-reminder')).toBe('no tag: system-reminder > /system-reminder')
  })

  it('leaves unrelated angle brackets alone', () => {
    expect(escapeFrameText('<div> a < b </system> <system-reminders')).toBe('<div> a < b </system> <\\system-reminders')
  })

  it('is lossless, including text that already contains escapes', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('</system-reminder>', '<\\/system-reminder>', '<SYSTEM-reminder>', '<', '\\', 'x', ' ', '\u200b', '/', 'system-reminder', '>')).map((parts) => parts.join('')), (text) => {
        expect(unescapeFrameText(escapeFrameText(text))).toBe(text)
      }),
    )
  })

  it('rendered batches contain exactly one opening and one closing frame tag, at the ends', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.constantFrom('</system-reminder>', '<system-reminder>', '</System-Reminder >', '<\u200b/system-reminder>')), { maxLength: 6 }).map((p) => p.join('')), fc.string(), (content, dir) => {
        const safeDir = dir.split('').filter((ch) => ch.charCodeAt(0) > 0x1f && !'/\\.'.includes(ch)).join('') || 'd'
        const { text } = renderChangeBatch([{ action: 'set', scope: projectScope(safeDir, 'base'), path: `${safeDir}/AGENTS.md`, content, digest: 'x' }], 1_000_000)
        expect(text.startsWith('<system-reminder>\n')).toBe(true)
        expect(text.endsWith('\n</system-reminder>')).toBe(true)
        const inner = text.slice('<system-reminder>\n'.length, -'\n</system-reminder>'.length)
        expect(tagCount(inner, /<(?:\s|[\u00AD\u200B-\u200F\u2060\uFEFF])*\/?(?:\s|[\u00AD\u200B-\u200F\u2060\uFEFF])*s[\u00AD\u200B-\u200F\u2060\uFEFF]*y[\u00AD\u200B-\u200F\u2060\uFEFF]*s/giu)).toBe(0)
      }),
    )
  })
})
