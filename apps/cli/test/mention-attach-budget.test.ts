// The limits of @ attachments, in process with the real filesystem, core tools and the scripted
// model: a binary file is named with the read tool's reason, a file that would take the prompt's
// attachments past 256 KiB is named instead of sent, and so is every file or directory after it;
// a directory before the limit goes as glob lists it.
import { afterEach, describe, expect, it } from 'vitest'
import { createScriptedProvider } from '@dsh/llm-scripted'
import { ATTACHED_HEADER } from '@dsh/runtime'
import { composeTestHost, tempTree, type TempTree } from '@dsh/testkit'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

describe('@ attachment limits', () => {
  it('names what it does not send, and why', async () => {
    const line = `${'x'.repeat(99)}\n`
    tree = await tempTree({ 'work/.git/': null, 'work/big.txt': line.repeat(1500), 'work/more.txt': line.repeat(1500), 'work/small.txt': 'tiny\n', 'work/bin.dat': 'a\u0000b', 'work/dir/x.txt': 'x\n', 'work/..notes/n.txt': 'n\n', 'work/docs/': null })
    const t = await composeTestHost({ dshHome: tree.path('home'), writableRoots: [tree.path('work')] })
    try {
      const agent = await t.host.startAgent({ cwd: tree.path('work'), provider: createScriptedProvider({ responses: [{ text: 'ok' }] }), onRequest: (body) => t.requests.push(body), attachMentions: true })
      await agent.prompt('see @bin.dat @dir @..notes @big.txt @more.txt @small.txt @docs')
      const texts = (t.requests[0]?.messages ?? []).map((message) => (typeof message.content === 'string' ? message.content : ''))
      const attached = texts.find((text) => text.startsWith(ATTACHED_HEADER)) ?? ''
      const parts = attached.split('\n\n')
      expect(parts[1]).toBe('@bin.dat was not attached: bin.dat looks binary (it contains NUL characters). Inspect it with bash (file, xxd | head).')
      expect(parts[2]).toBe('<directory path="dir">\ndir/x.txt\n</directory>')
      // A folder whose name starts with two dots is inside the working directory all the same.
      expect(parts[3]).toBe('<directory path="..notes">\n..notes/n.txt\n</directory>')
      expect(parts[4]?.startsWith('<file path="big.txt">\n     1\txxx')).toBe(true)
      expect(parts.slice(5)).toEqual([
        '@more.txt was not attached: it would take the files attached to one prompt past 256 KiB; read it with the read tool',
        '@small.txt was not attached: the files attached to one prompt are limited to 256 KiB; read it with the read tool',
        '@docs was not attached: the files attached to one prompt are limited to 256 KiB; list it with the glob tool',
      ])
    } finally {
      await t.host.dispose()
    }
  })
})
