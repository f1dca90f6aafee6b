// A reader that goes away early (`dsh sessions list | head -1`) ends dsh quietly: no EPIPE stack
// trace, the exit code it had so far. Output is made larger than a pipe buffer so dsh is still
// writing when head exits.
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { dshBinary, runDsh, sessionIdOf, writeScript } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

/** Runs `script` with bash; `$DSH` is the binary. Resolves with stdout, stderr and the exit code of dsh. */
function pipeline(script: string, cwd: string): Promise<{ stdout: string; stderr: string; dshStatus: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `${script}; echo "dsh-status:\${PIPESTATUS[0]}" >&3`], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: cwd, NO_COLOR: '1', DSH: dshBinary },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    })
    const [, out, err, fd3] = child.stdio
    if (out === null || err === null || fd3 === null || fd3 === undefined) throw new Error('bash was spawned without its pipes')
    let stdout = ''
    let stderr = ''
    let status = ''
    out.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    err.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    fd3.on('data', (chunk: Buffer) => (status += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`pipeline timed out\nstdout: ${stdout}\nstderr: ${stderr}`))
    }, 20_000)
    child.on('error', reject)
    child.on('close', () => {
      clearTimeout(timer)
      resolve({ stdout, stderr, dshStatus: Number(/dsh-status:(\d+)/.exec(status)?.[1] ?? Number.NaN) })
    })
  })
}

describe('a closed output pipe', () => {
  it('dsh sessions list | head -2 prints the header and one row, and exits 0 without a stack trace', async () => {
    tree = await tempTree({ 'repo/': null, 'scripts/': null })
    const script = writeScript(tree.path('scripts'), 'ok.json', { responses: [{ text: 'ok' }] })
    const first = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, 'x'.repeat(80)], { cwd: tree.root })
    const id = sessionIdOf(first.stderr)
    const text = readFileSync(tree.path(`home/sessions/${id}.jsonl`), 'utf8')
    // About 150 characters a row: 1000 rows are well over a 64 KiB pipe buffer.
    for (let i = 0; i < 1000; i++) writeFileSync(tree.path(`home/sessions/copy${i}-${id}.jsonl`), text.replaceAll(id, `copy${i}-${id}`))
    expect(readdirSync(tree.path('home/sessions')).filter((name) => name.endsWith('.jsonl'))).toHaveLength(1001)
    const result = await pipeline(`"$DSH" --dsh-home home sessions list | head -2`, tree.root)
    expect(result.stdout.split('\n')).toHaveLength(3)
    expect(result.stdout).toMatch(/^ID +UPDATED +TURNS +SIZE +CWD +TITLE\n\S*-\d{8}-\d{6}-\w+ .*\/repo +x+.*\n$/)
    expect(result.stderr).toBe('')
    expect(result.dshStatus).toBe(0)
  })

  it('a closed stderr (warnings | head -1) also ends dsh quietly', async () => {
    tree = await tempTree({ 'home/sessions/': null })
    for (let i = 0; i < 1000; i++) writeFileSync(tree.path(`home/sessions/broken-${String(i).padStart(4, '0')}-${'n'.repeat(60)}.jsonl`), 'not a session\n')
    const result = await pipeline(`"$DSH" --dsh-home home sessions list 2>&1 >/dev/null | head -1`, tree.root)
    expect(result.stdout).toMatch(/^warning: skipping \S+broken-\d{4}-n+\.jsonl: .*\n$/)
    expect(result.stderr).toBe('')
    expect(result.dshStatus).toBe(0)
  })
})
