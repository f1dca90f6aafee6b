// A model server that accepts and never answers, and one on a port Node refuses, through the built binary.
import { afterEach, describe, expect, it } from 'vitest'
import { startSseServer, tempTree, type SseServer, type TempTree } from '@dsh/testkit'
import { runDsh } from './run-dsh.ts'

let tree: TempTree
let server: SseServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  await tree?.dispose()
})

describe('dsh run against an unresponsive model server', () => {
  it('gives up after the configured connect timeout per attempt, announcing each retry as one warning line', async () => {
    tree = await tempTree({ 'repo/': null, 'dsh.yaml': 'model:\n  connectTimeoutMs: 200\n  maxRetries: 2\n' })
    server = await startSseServer([{ kind: 'silent' }])
    const args = ['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--config', tree.path('dsh.yaml'), '--model', 'openai:local-model', '--base-url', server.baseUrl, 'hi']
    const result = await runDsh(args, { cwd: tree.root })
    expect(result.code).toBe(1)
    const lines = result.stderr.trimEnd().split('\n').filter((line) => !line.startsWith('session: '))
    expect(lines).toEqual([
      expect.stringMatching(/^warning: openai: MODEL_NETWORK \(no response from the server within 200 ms \(connectTimeoutMs\)\); attempt 2 of 3 in \d+ ms$/),
      expect.stringMatching(/^warning: openai: MODEL_NETWORK \(no response from the server within 200 ms \(connectTimeoutMs\)\); attempt 3 of 3 in \d+ ms$/),
      `dsh: cannot reach ${server.baseUrl} after 2 retries: no response from the server within 200 ms (connectTimeoutMs)`,
    ])
    expect(server.requests).toHaveLength(3)
  })

  it('a port Node refuses fails at once, without retries', async () => {
    tree = await tempTree({ 'repo/': null })
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', 'openai:local-model', '--base-url', 'http://127.0.0.1:6000/v1', 'hi'], { cwd: tree.root })
    expect(result.code).toBe(1)
    expect(result.stderr.trimEnd().split('\n').filter((line) => !line.startsWith('session: '))).toEqual([
      'dsh: cannot reach http://127.0.0.1:6000/v1: Node refuses to connect to this port ("bad port": it is on the fetch block list, like 6000 or 6667); serve the model on another port',
    ])
  })
})
