// What a run loads: the built bundle without the OpenAI SDK's chunk and without the terminal UI's
// command chunk still answers `--version` and `--help` and runs a scripted turn, so neither is
// loaded when a run does not use it; a DeepSeek run loads the SDK at its first request.
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { spawnCollect, testEnv, writeScript } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

const built = fileURLToPath(new URL('../dist', import.meta.url))

/** A copy of the built bundle without the chunks whose names start with one of `prefixes`. */
function bundleWithout(target: string, prefixes: readonly string[]): { bundle: string; removed: string[] } {
  cpSync(built, target, { recursive: true })
  const removed = readdirSync(join(target, 'chunks')).filter((name) => name.endsWith('.mjs') && prefixes.some((prefix) => name.startsWith(prefix)))
  for (const name of removed) rmSync(join(target, 'chunks', name))
  return { bundle: join(target, 'dsh.mjs'), removed }
}

/** The chunks `file` imports statically, and theirs (what loading it parses). */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  for (const match of readFileSync(file, 'utf8').matchAll(/^\} from "(\.\/(?:chunks\/)?[^"]+\.mjs)";$/gmu)) {
    const chunk = join(dirname(file), match[1] ?? '')
    if (seen.has(chunk)) continue
    seen.add(chunk)
    staticClosure(chunk, seen)
  }
  return seen
}

describe('lazy loading', () => {
  it('--version and --help need nothing but the entry and what it imports statically', async () => {
    tree = await tempTree()
    cpSync(built, tree.path('dist'), { recursive: true })
    const bundle = tree.path('dist/dsh.mjs')
    const kept = new Set([...staticClosure(bundle)].map((chunk) => basename(chunk)))
    const chunks = readdirSync(tree.path('dist/chunks')).filter((name) => name.endsWith('.mjs'))
    for (const name of chunks) if (!kept.has(name)) rmSync(tree.path(`dist/chunks/${name}`))
    // Most of the bundle is gone: zod, the runtime, the plugins, the terminal UI, the OpenAI SDK.
    expect(kept.size).toBeLessThan(chunks.length / 2)
    const env = testEnv(tree.root, { NO_COLOR: '1' })
    expect(await spawnCollect(process.execPath, [bundle, '--version'], { cwd: tree.root, env })).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/u) })
    expect(await spawnCollect(process.execPath, [bundle, 'run', '--help'], { cwd: tree.root, env })).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: dsh run') })
  })

  it('a scripted run, --version and --help never load the OpenAI SDK, the terminal UI or the ACP server', async () => {
    tree = await tempTree({ 'work/notes.txt': 'hello\n' })
    const { bundle, removed } = bundleWithout(tree.path('dist'), ['openai-', 'chat-command-', 'acp-'])
    expect(removed.map((name) => name.replace(/-[A-Z0-9]+\.mjs$/u, ''))).toEqual(['acp', 'chat-command', 'openai'])
    const env = testEnv(tree.root, { NO_COLOR: '1' })
    const script = writeScript(tree.root, 'script.json', { responses: [{ toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }, { text: 'read it' }] })
    const run = await spawnCollect(process.execPath, [bundle, 'run', '--dsh-home', tree.path('home'), '--model', `scripted:${script}`, 'read notes'], { cwd: tree.path('work'), env })
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: 'read it\n' })
    expect((await spawnCollect(process.execPath, [bundle, '--version'], { cwd: tree.root, env })).code).toBe(0)
    expect((await spawnCollect(process.execPath, [bundle, 'run', '--help'], { cwd: tree.root, env })).code).toBe(0)
  })

  it('a DeepSeek run loads the SDK at its first request', async () => {
    tree = await tempTree({ 'work/': null })
    const { bundle } = bundleWithout(tree.path('dist'), ['openai-'])
    const env = testEnv(tree.root, { NO_COLOR: '1', DEEPSEEK_API_KEY: 'sk-test' })
    const run = await spawnCollect(process.execPath, [bundle, 'run', '--dsh-home', tree.path('home'), '--base-url', 'http://127.0.0.1:9/v1', 'hi'], { cwd: tree.path('work'), env })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^dsh: .*Cannot find module .*openai-[A-Z0-9]+\.mjs/mu)
  })
})
