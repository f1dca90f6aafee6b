// Faults of `dsh acp` on its input (issue 22 F21), through the built binary on raw stdio: a line
// that is not JSON gets a JSON-RPC -32700 Parse error answer (id null) and the connection goes on.
import { spawn } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { dshBinary, testEnv } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

describe('dsh acp input', () => {
  it('F21: answers a line that is not JSON with -32700 and still answers the next request', async () => {
    tree = await tempTree({ 'work/': null, 'script.json': JSON.stringify({ responses: [{ text: 'unused' }] }) })
    const child = spawn(dshBinary, ['acp', '--dsh-home', tree.path('home'), '--model', `scripted:${tree.path('script.json')}`], { cwd: tree.path('work'), env: testEnv(tree.root, { NO_COLOR: '1' }), stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    child.stdin.write('this is not json\n\n{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}\n{"truncated":\n')
    child.stdin.end()
    expect(await exited).toBe(0)
    const lines = stdout
      .trim()
      .split('\n')
      .map((line): unknown => JSON.parse(line))
    expect(lines).toHaveLength(3)
    expect(lines).toContainEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error', data: { reason: expect.any(String), line: 'this is not json' } } })
    expect(lines).toContainEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error', data: { reason: expect.any(String), line: '{"truncated":' } } })
    expect(lines).toContainEqual(expect.objectContaining({ jsonrpc: '2.0', id: 1, result: expect.objectContaining({ protocolVersion: 1 }) }))
  })
})
