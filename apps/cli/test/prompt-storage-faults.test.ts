// F17 (issue 22), through the built binary and the testkit's model server: a 20 MB prompt is
// stored once in the session directory (the entered message refers to the queued one), and a
// resume sends the whole prompt again.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { finish, startSseServer, tempTree, text, type SseServer, type TempTree } from '@dsh/testkit'
import { runDsh, sessionIdOf } from './run-dsh.ts'

let tree: TempTree
let server: SseServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  await tree?.dispose()
})

/** Bytes of every file under `dir`. */
function bytesUnder(dir: string): number {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0)
}

const PROMPT_BYTES = 20 * 1024 * 1024

interface Body {
  readonly messages: readonly { readonly role: string; readonly content: string | null }[]
}

describe('a 20 MB prompt', () => {
  it('F17: is stored once in the session directory, and resume sends it whole', async () => {
    // A window large enough that the resume sends the prompt itself, not a checkpoint of it.
    tree = await tempTree({ 'repo/.git/': null, 'dsh.yaml': 'model:\n  contextWindow: 100000000\n' })
    server = await startSseServer([
      { kind: 'sse', chunks: [text('first answer'), finish()] },
      { kind: 'sse', chunks: [text('second answer'), finish()] },
    ])
    const base = ['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--config', tree.path('dsh.yaml'), '--model', 'openai:test-model', '--base-url', server.baseUrl]
    const env = { OPENAI_API_KEY: 'sk-test' }
    const prompt = `START ${'p'.repeat(PROMPT_BYTES - 10)} END`
    const first = await runDsh([...base, '-'], { cwd: tree.root, env, input: prompt })
    expect(first).toMatchObject({ code: 0, stdout: 'first answer\n' })
    const stored = bytesUnder(tree.path('home/sessions'))
    expect(stored).toBeGreaterThan(prompt.length)
    expect(stored).toBeLessThan(prompt.length * 1.5)

    const second = await runDsh([...base, '--resume', sessionIdOf(first.stderr), 'and?'], { cwd: tree.root, env })
    expect(second).toMatchObject({ code: 0, stdout: 'second answer\n' })
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- dsh sends OpenAI chat bodies
    const resumed = server.requests[1]?.body as Body | undefined
    expect(resumed?.messages.filter((message) => message.role === 'user').map((message) => message.content?.length)).toEqual([prompt.length, 4])
    expect(resumed?.messages.find((message) => message.role === 'user')?.content === prompt).toBe(true)
    expect(bytesUnder(tree.path('home/sessions'))).toBeLessThan(prompt.length * 1.5)
  })
})
