// The official MCP client conformance suite, @modelcontextprotocol/conformance 0.1.16, on its
// client scenarios without OAuth, run with Node 22 from the devDependency `node` (the suite needs
// it; dsh itself runs on the Node that runs the tests). The client under test is the built dsh
// (`dsh run` with a scripted model, conformance/dsh-client.mjs). Known failures are listed in
// conformance/baseline.yml; the suite exits 1 on any other failure and on a listed scenario that
// passes. Its own checks include the timing of an SSE reconnection (sse-retry), judged here
// check by check (see that test).
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'

const require = createRequire(import.meta.url)
const node22 = join(dirname(require.resolve('node/package.json')), 'bin', 'node')
const suite = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js')
const client = fileURLToPath(new URL('./conformance/dsh-client.mjs', import.meta.url))
const baseline = fileURLToPath(new URL('./conformance/baseline.yml', import.meta.url))
const quoted = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

/** Runs one scenario in `cwd` (its results go to `cwd/results/<scenario>-<time>`); resolves with the exit code and output. */
function scenario(name: string, cwd: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(node22, [suite, 'client', '--command', `${quoted(process.execPath)} ${quoted(client)}`, '--scenario', name, '--expected-failures', baseline, '--timeout', '60000', '--output-dir', join(cwd, 'results')], { cwd, env: { ...process.env, DSH_CONFORMANCE_DIR: cwd, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })))
}

/** The statuses of the scenario's checks (`results/<scenario>-<time>/checks.json`). */
function statuses(cwd: string, name: string): Record<string, string> {
  const dir = readdirSync(join(cwd, 'results')).find((entry) => entry.startsWith(`${name}-`))
  if (dir === undefined) return {}
  const checks: unknown = JSON.parse(readFileSync(join(cwd, 'results', dir, 'checks.json'), 'utf8'))
  if (!Array.isArray(checks)) return {}
  return Object.fromEntries(checks.flatMap((check: unknown) => (typeof check === 'object' && check !== null && 'id' in check && 'status' in check && check.status !== 'INFO' ? [[String(check.id), String(check.status)]] : [])))
}

describe('MCP client conformance (non-OAuth client scenarios)', () => {
  it('runs on Node 22 from the devDependency', async () => {
    const child = spawn(node22, ['-p', 'process.versions.node'], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    await new Promise((resolve) => child.on('close', resolve))
    expect(out.trim()).toMatch(/^22\./)
  })

  const passing: Record<string, readonly string[]> = {
    initialize: ['mcp-client-initialization'],
    tools_call: ['tool-add-numbers'],
  }
  for (const [name, checks] of Object.entries(passing)) {
    it(`passes ${name}`, { timeout: 180_000 }, async () => {
      tree = await tempTree()
      const result = await scenario(name, tree.root)
      expect(result.code, result.output).toBe(0)
      expect(statuses(tree.root, name)).toEqual(Object.fromEntries(checks.map((check) => [check, 'SUCCESS'])))
    })
  }

  // The suite times the reconnection (retry: 500 ms): 450–700 ms is SUCCESS, 700–1000 ms a WARNING
  // it calls acceptable ("may indicate network delays"), and with a baseline file a WARNING makes
  // the run exit 1. On a loaded machine a timer may fire that late, so the exit code is not used
  // here: every check must pass, the timing one as SUCCESS or WARNING; too early or very late
  // (a client ignoring `retry`) is still a FAILURE and fails this test.
  it('passes sse-retry (a reconnection slightly late under load counts, as the suite says)', { timeout: 180_000 }, async () => {
    tree = await tempTree()
    const result = await scenario('sse-retry', tree.root)
    const checks = statuses(tree.root, 'sse-retry')
    expect(checks['client-sse-graceful-reconnect'], result.output).toBe('SUCCESS')
    expect(checks['client-sse-last-event-id'], result.output).toBe('SUCCESS')
    expect(['SUCCESS', 'WARNING'], result.output).toContain(checks['client-sse-retry-timing'])
    expect(Object.keys(checks).toSorted()).toEqual(['client-sse-graceful-reconnect', 'client-sse-last-event-id', 'client-sse-retry-timing'])
  })

  it('fails elicitation-sep1034-client-defaults as the baseline says (dsh does not answer elicitation)', { timeout: 180_000 }, async () => {
    tree = await tempTree()
    const result = await scenario('elicitation-sep1034-client-defaults', tree.root)
    expect(result.code, result.output).toBe(0)
    expect(result.output).toContain('Method not found')
  })
})
