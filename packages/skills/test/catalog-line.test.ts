// Property: a catalog line is one line whatever whitespace a description, hint or folder holds
// (every run of whitespace one space, none at either end), escapes frame tags, and shows a folder
// inside the project relative to it with `/`, one outside it absolute. The oracle is the plain
// formula the line is documented to follow, so the shortcuts it takes (no normalising pass when
// there is nothing to normalise, no escape pass without a `<`) cannot change what the model reads.
import { join, relative, sep } from 'node:path'
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { escapeFrameText } from '@dsh/workspace-context'
import { catalogLine, folderDisplay } from '../src/catalog-text.ts'
import type { LoadedSkill } from '../src/types.ts'

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim()
const piece = fc.constantFrom('a', 'B', ' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\ufeff', '<', '</system-reminder>', 'é', '-', ':')
const text = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''))
const part = fc.constantFrom('pkg', 'web', '.agents', 'skills', 'a b', '..x')

const skillAt = (folder: string, description: string, whenToUse: string | undefined): LoadedSkill => ({
  kind: 'skill',
  meta: { name: 'x', description, ...(whenToUse === undefined ? {} : { whenToUse }), disableModelInvocation: false, userInvocable: true, allowedTools: [], extra: {} },
  body: '',
  folder,
  file: join(folder, 'SKILL.md'),
  digest: '',
  source: { dir: folder, scope: 'project', family: '.dsh', rel: '.' },
})

describe('catalog lines (property)', () => {
  it('equal the documented formula for any whitespace and any folder', () => {
    const root = join(sep, 'work', 'repo')
    fc.assert(
      fc.property(fc.string({ maxLength: 6 }).map((key) => `k${key}`), text, fc.option(text, { nil: undefined }), fc.array(part, { minLength: 1, maxLength: 4 }), fc.boolean(), (key, description, whenToUse, parts, inside) => {
        const folder = inside ? join(root, ...parts) : join(sep, 'elsewhere', ...parts)
        const shown = inside ? relative(root, folder).split(sep).join('/') : folder
        expect(folderDisplay(folder, root)).toBe(shown)
        const when = whenToUse === undefined ? '' : ` When to use: ${collapse(whenToUse)}`
        expect(catalogLine(key, skillAt(folder, description, whenToUse), root)).toBe(escapeFrameText(`- ${collapse(key)}: ${collapse(description)}${when} (folder: ${collapse(shown)})`))
      }),
      { numRuns: 400 },
    )
  })
})
