// Text piped or redirected into `dsh run` beside prompt words, through the built binary: it reaches
// the model after the words as a <stdin> block (a pipe, a file); a terminal or /dev/null adds
// nothing; a pipe its parent never writes to nor closes costs a short wait and one line, never a
// hang; a last word "-" waits for text however late; binary or oversized input is a usage error.
import { closeSync, openSync, truncateSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { dshBinary, readRequests, runDsh, spawnCollect, testEnv, writeScript, type DshResult } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

async function workspace() {
  tree = await tempTree({ 'repo/notes.txt': 'alpha\n' })
  const script = writeScript(tree.root, 'answer.json', { responses: [{ text: 'answered' }] })
  const log = tree.path('requests.jsonl')
  return { args: ['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log], log }
}

/** Writes the text long after a short stdin wait would have given up. */
const lateFeed = (write: (text: string) => void): void => void setTimeout(() => write('late output\n'), 800)

const lastPrompt = (log: string): unknown => readRequests(log).at(-1)?.messages.at(-1)?.content

/** Runs dsh with stdin from a file, or a pipe the test holds open (and may end later through `feed`). */
function dshWith(args: readonly string[], stdin: { file: string } | { feed?: (end: (text: string) => void) => void }, env: Record<string, string> = {}): Promise<DshResult> {
  const options = { cwd: tree.root, env: testEnv(tree.root, { NO_COLOR: '1', ...env }) }
  if (!('file' in stdin)) return spawnCollect(dshBinary, args, { ...options, stdin })
  const fd = openSync(stdin.file, 'r')
  const spawned = spawnCollect(dshBinary, args, { ...options, stdin: { fd } })
  closeSync(fd)
  return spawned
}

describe('stdin beside the prompt words', () => {
  it('piped text and a redirected file follow the words as a <stdin> block; /dev/null adds nothing', async () => {
    const w = await workspace()
    const piped = await runDsh([...w.args, 'review', 'this diff'], { cwd: tree.root, input: 'diff --git a/x b/x\n+added\n\n' })
    expect(piped).toMatchObject({ code: 0, stdout: 'answered\n', stderr: expect.stringMatching(/^session: \S+\n$/) })
    expect(lastPrompt(w.log)).toBe('review this diff\n\n<stdin>\ndiff --git a/x b/x\n+added\n</stdin>')
    writeFileSync(tree.path('build.log'), 'error TS2322 in a.ts\n')
    expect(await dshWith([...w.args, 'why does the build fail?'], { file: tree.path('build.log') })).toMatchObject({ code: 0, stdout: 'answered\n' })
    expect(lastPrompt(w.log)).toBe('why does the build fail?\n\n<stdin>\nerror TS2322 in a.ts\n</stdin>')
    const alone = await runDsh([...w.args, 'just this'], { cwd: tree.root })
    expect(alone).toMatchObject({ code: 0, stderr: expect.stringMatching(/^session: \S+\n$/) })
    expect(lastPrompt(w.log)).toBe('just this')
  })

  it('a pipe that stays silent and open costs the wait and one line, not a hang; the run goes on with the words', async () => {
    const w = await workspace()
    const result = await dshWith([...w.args, 'go on'], {}, { DSH_STDIN_WAIT_MS: '300' })
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('answered\n')
    expect(result.stderr.split('\n')[0]).toBe('dsh: nothing came on stdin within 300 ms; going on with the prompt alone (end the prompt with - to wait for piped text, or give < /dev/null to skip the wait)')
    expect(lastPrompt(w.log)).toBe('go on')
  })

  it('a last word "-" waits for the piped text however late it comes', async () => {
    const w = await workspace()
    expect(await dshWith([...w.args, 'summarize', '-'], { feed: lateFeed }, { DSH_STDIN_WAIT_MS: '100' })).toMatchObject({ code: 0, stdout: 'answered\n' })
    expect(lastPrompt(w.log)).toBe('summarize\n\n<stdin>\nlate output\n</stdin>')
  })

  it('binary or oversized input and a bad DSH_STDIN_WAIT_MS are usage errors that never reach the model', async () => {
    const w = await workspace()
    writeFileSync(tree.path('binary'), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0xff, 0xfe, 0x00]))
    expect(await dshWith([...w.args, 'what is this?'], { file: tree.path('binary') })).toEqual({ code: 2, stdout: '', stderr: 'dsh: the text on stdin is not UTF-8 (binary input?): save it to a file and name the file in the prompt\n' })
    // Sparse: 64 MiB and one byte of zeros without writing them.
    writeFileSync(tree.path('huge'), '')
    truncateSync(tree.path('huge'), 64 * 1024 * 1024 + 1)
    expect(await dshWith([...w.args, 'read it'], { file: tree.path('huge') })).toEqual({ code: 2, stdout: '', stderr: 'dsh: the text on stdin is larger than 64 MiB: save it to a file and name the file in the prompt\n' })
    expect(await dshWith([...w.args, 'x'], {}, { DSH_STDIN_WAIT_MS: 'soon' })).toEqual({ code: 2, stdout: '', stderr: 'dsh: DSH_STDIN_WAIT_MS=soon: expected a whole number of milliseconds\n' })
    expect(() => readRequests(w.log)).toThrow(/ENOENT/)
  })
})
