// The guard on a real host with real session files: every decision is a tool/permission event,
// "allow always" adds a session rule that survives a resume (read back from the log), a reject's
// note is recorded, a front end that cannot ask gets the denial with the way out, and settings
// layers are read at every call.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { PermissionDecision, PermissionRule, ToolDefinition } from '@dsh/contracts'
import { createScriptedProvider, type ModelScript } from '@dsh/llm-scripted'
import { commandScope, createHost, dataOf, type AskPermission, type Host } from '@dsh/runtime'
import { tempTree, type TempTree } from '@dsh/testkit'
import { installPermissionGuard, parseRule } from '../src/index.ts'

let tree: TempTree | undefined
let host: Host | undefined
afterEach(async () => {
  await host?.dispose()
  host = undefined
  await tree?.dispose()
  tree = undefined
})

function recorder(ran: string[]): ToolDefinition<never> {
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

const bashCalls = (...commands: string[]): ModelScript => ({ responses: [...commands.map((command) => ({ toolCalls: [{ name: 'bash', arguments: { command } }] })), { text: 'done' }] })

interface Rig {
  readonly ran: string[]
  readonly asked: string[]
  readonly run: (script: ModelScript, resume?: string) => Promise<{ id: string; results: string[] }>
}

async function rig(options: { answers?: PermissionDecision[]; interactive?: boolean; allow?: PermissionRule[]; deny?: PermissionRule[] } = {}): Promise<Rig> {
  tree ??= await tempTree({ 'repo/': null })
  const ran: string[] = []
  const asked: string[] = []
  const answers = [...(options.answers ?? [])]
  const home = tree.path('home')
  const repo = tree.path('repo')
  let wrapped: AskPermission | undefined
  const interactive = options.interactive ?? true
  host = await createHost({
    dshHome: home,
    tools: [recorder(ran)],
    log: () => undefined,
    ...(interactive ? { askPermission: (execution, reason) => (wrapped === undefined ? Promise.resolve(false) : wrapped(execution, reason)) } : {}),
  })
  const guard = installPermissionGuard(host.ctx, {
    mode: 'ask',
    rules: () => ({ allow: options.allow ?? [], deny: options.deny ?? [] }),
    sandboxAvailable: () => true,
    ask: interactive
      ? (execution, reason) => {
          asked.push(`${commandOf(execution.arguments)} (${reason ?? ''})`)
          return Promise.resolve(answers.shift() ?? { kind: 'reject' })
        }
      : undefined,
    cwd: repo,
  })
  wrapped = guard.askPermission
  const current = host
  return {
    ran,
    asked,
    run: async (script, resume) => {
      const agent = await current.startAgent({ cwd: repo, provider: createScriptedProvider(script), ...(resume === undefined ? {} : { resume }) })
      await agent.prompt('go')
      const results = agent.session.events.flatMap((event) => {
        const data = dataOf(event, 'tool/result')
        return data === undefined ? [] : [data.message.content[0]?.text ?? '']
      })
      return { id: agent.session.id, results }
    },
  }
}


/** The payloads of the `tool/permission` events among JSONL lines. */
function permissionData(text: string): unknown[] {
  return text
    .trim()
    .split('\n')
    .flatMap((line) => {
      const event: unknown = JSON.parse(line)
      return typeof event === 'object' && event !== null && 'type' in event && event.type === 'tool/permission' && 'data' in event ? [event.data] : []
    })
}

function permissionEvents(id: string): unknown[] {
  if (tree === undefined) throw new Error('no tree')
  return permissionData(readFileSync(join(tree.path('home'), 'sessions', `${id}.jsonl`), 'utf8'))
}

function commandOf(args: unknown): string {
  return typeof args === 'object' && args !== null && 'command' in args && typeof args.command === 'string' ? args.command : ''
}

describe('the permission guard on a host', () => {
  it('"allow always" for a prefix asks once, records the session rule, and a resumed session still has it', async () => {
    const first = await rig({ answers: [{ kind: 'allow-always', scope: { kind: 'command-prefix', prefix: 'npm test' } }] })
    const { id } = await first.run(bashCalls('npm test', 'npm test -- --grep x', 'npm test; rm -rf /'))
    expect(first.asked).toEqual(['npm test (permission mode ask asks before running bash)', 'npm test; rm -rf / (permission mode ask asks before running bash)'])
    expect(first.ran).toEqual(['npm test', 'npm test -- --grep x'])
    expect(permissionEvents(id)).toEqual([
      { callId: 'call_t1s1_1', tool: 'bash', mode: 'ask', decision: 'allow', by: 'answer', remember: 'bash(npm test:*)' },
      { callId: 'call_t1s2_1', tool: 'bash', mode: 'ask', decision: 'allow', by: 'rule', rule: 'bash(npm test:*)' },
      { callId: 'call_t1s3_1', tool: 'bash', mode: 'ask', decision: 'deny', by: 'answer' },
    ])
    await host?.dispose()
    host = undefined
    // A new host (a new process) resumes the session: the rule comes back from the log.
    const second = await rig()
    await second.run(bashCalls('npm test --watch=false'), id)
    expect(second.asked).toEqual([])
    expect(second.ran).toEqual(['npm test --watch=false'])
    expect(permissionEvents(id).at(-1)).toEqual({ callId: 'call_t2s1_1', tool: 'bash', mode: 'ask', decision: 'allow', by: 'rule', rule: 'bash(npm test:*)' })
  })

  it('"allow always" for a compound command adds one rule per part: the same parts run unasked in any order, another part asks, a resume keeps all', async () => {
    const first = await rig({ answers: [{ kind: 'allow-always', scope: { kind: 'command-prefixes', prefixes: ['git status', 'npm test'] } }] })
    const { id } = await first.run(bashCalls('git status && npm test', 'npm test -- x; git status -s', 'git status | rm -rf x'))
    expect(first.asked).toEqual(['git status && npm test (permission mode ask asks before running bash)', 'git status | rm -rf x (permission mode ask asks before running bash)'])
    expect(first.ran).toEqual(['git status && npm test', 'npm test -- x; git status -s'])
    expect(permissionEvents(id).slice(0, 2)).toEqual([
      { callId: 'call_t1s1_1', tool: 'bash', mode: 'ask', decision: 'allow', by: 'answer', remember: 'bash(git status:*)', rememberAlso: ['bash(npm test:*)'] },
      { callId: 'call_t1s2_1', tool: 'bash', mode: 'ask', decision: 'allow', by: 'rule', rule: 'bash(npm test:*), bash(git status:*)' },
    ])
    await host?.dispose()
    host = undefined
    const second = await rig()
    await second.run(bashCalls('git status', 'npm test'), id)
    expect(second.asked).toEqual([])
    expect(second.ran).toEqual(['git status', 'npm test'])
  })

  it('"allow always" for a shell loop approves the commands in its body: another body asks, and so does one behind a reserved word', async () => {
    const loop = 'for i in 1 2 3; do echo line $i; sleep 0.3; done'
    const scope = commandScope(loop)
    expect(scope).toEqual({ kind: 'command-prefixes', prefixes: ['echo line', 'sleep'] })
    const r = await rig({ answers: scope === undefined ? [] : [{ kind: 'allow-always', scope }] })
    const { id } = await r.run(bashCalls(loop, 'for f in a b; do sleep 1; done', 'sleep 2 && echo line done', 'for f in x; do sleep 1; done < list.txt', 'for f in x; do sleep 1; done > out.txt', 'for i in 1; do rm -rf src; done', 'if true; then rm -rf src; fi', 'done'))
    expect(r.ran).toEqual([loop, 'for f in a b; do sleep 1; done', 'sleep 2 && echo line done', 'for f in x; do sleep 1; done < list.txt'])
    expect(r.asked.map((line) => line.replace(/ \(permission mode.*$/, ''))).toEqual([loop, 'for f in x; do sleep 1; done > out.txt', 'for i in 1; do rm -rf src; done', 'if true; then rm -rf src; fi', 'done'])
    expect(permissionEvents(id)[0]).toEqual({ callId: 'call_t1s1_1', tool: 'bash', mode: 'ask', decision: 'allow', by: 'answer', remember: 'bash(echo line:*)', rememberAlso: ['bash(sleep:*)'] })
  })

  it('a prefix rule of a reserved word or a command runner, from an older dsh or a front end, allows nothing', async () => {
    const r = await rig({ answers: [{ kind: 'allow-always', scope: { kind: 'command-prefixes', prefixes: ['if', 'timeout', 'then cat', 'npm test'] } }] })
    const { id } = await r.run(bashCalls('if [ -f x ]; then cat x; fi', 'if rm -rf src; then cat x; fi', 'timeout 5 rm -rf src', 'npm test'))
    expect(r.ran).toEqual(['if [ -f x ]; then cat x; fi', 'npm test'])
    expect(permissionEvents(id)[0]).toMatchObject({ decision: 'allow', by: 'answer', remember: 'bash(npm test:*)' })
    await host?.dispose()
    host = undefined
    // A log that holds such rules (hand-edited, or written by an older dsh) restores none of them.
    const file = join(tree?.path('home') ?? '', 'sessions', `${id}.jsonl`)
    const lines = readFileSync(file, 'utf8').replace('"remember":"bash(npm test:*)"', '"remember":"bash(timeout:*)","rememberAlso":["bash(if:*)","bash(env:*)","bash(git status:*)"]')
    writeFileSync(file, lines)
    const second = await rig({ allow: [parseRule('bash(cat:*)', 'test')] })
    await second.run(bashCalls('timeout 5 rm -rf src', 'if rm -rf src; then cat x; fi', 'env rm -rf src', 'git status', 'then cat x'), id)
    expect(second.ran).toEqual(['git status', 'then cat x'])
  })

  it('an approved prefix writes no file through a redirection, and defines no function', async () => {
    const r = await rig({ allow: [parseRule('bash(echo:*)', 'test'), parseRule('bash(ls:*)', 'test'), parseRule('bash(echo * > notes.txt)', 'test')] })
    await r.run(bashCalls('echo hi > src/index.ts', 'ls >> .bashrc', 'ls &> out', 'echo hi 2>&1', 'ls > /dev/null 2>&1', 'echo "a > b"', 'echo all > notes.txt', 'ls () { rm -rf src; }; ls', '(rm -rf src)', '{ ls; }'))
    expect(r.ran).toEqual(['echo hi 2>&1', 'ls > /dev/null 2>&1', 'echo "a > b"', 'echo all > notes.txt', '{ ls; }'])
    expect(r.asked.map((line) => line.replace(/ \(permission mode.*$/, ''))).toEqual(['echo hi > src/index.ts', 'ls >> .bashrc', 'ls &> out', 'ls () { rm -rf src; }; ls', '(rm -rf src)'])
  })

  it('a rejection with a note is recorded with the note, and the model reads it', async () => {
    const r = await rig({ answers: [{ kind: 'reject', note: 'use make check instead' }] })
    const { id, results } = await r.run(bashCalls('npm run lint'))
    expect(r.ran).toEqual([])
    expect(results[0]).toBe('The bash call was not approved (permission mode ask asks before running bash). The user said: "use make check instead". Ask the user how to proceed or choose another approach.')
    expect(permissionEvents(id)).toEqual([{ callId: 'call_t1s1_1', tool: 'bash', mode: 'ask', decision: 'deny', by: 'answer', note: 'use make check instead' }])
  })

  it('rules decide before anyone is asked: deny wins over allow, and allow skips the question', async () => {
    const r = await rig({ allow: [parseRule('bash(git *)', 'test')], deny: [parseRule('bash(git push*)', 'test')] })
    const { id, results } = await r.run(bashCalls('git status', 'git push --force'))
    expect(r.asked).toEqual([])
    expect(r.ran).toEqual(['git status'])
    expect(results[1]).toBe('The bash call was denied: the permission rule "bash(git push*)" denies it. The user\'s deny rules forbid this; do not try to get around them. Choose another approach or ask the user.')
    expect(permissionEvents(id)).toEqual([
      { callId: 'call_t1s1_1', tool: 'bash', mode: 'ask', decision: 'allow', by: 'rule', rule: 'bash(git *)' },
      { callId: 'call_t1s2_1', tool: 'bash', mode: 'ask', decision: 'deny', by: 'rule', rule: 'bash(git push*)' },
    ])
  })

  it('a front end that cannot ask gets a denial naming the flags that allow it', async () => {
    const r = await rig({ interactive: false })
    const { id, results } = await r.run(bashCalls('npm test -- --ci'))
    expect(r.ran).toEqual([])
    expect(results[0]).toBe(
      "The bash call was denied: permission mode ask needs the user's approval for bash, and dsh run cannot ask. Tell the user that dsh run allows it with --allow 'bash(npm test:*)' or --permission-mode full-auto (shell commands stay sandboxed to the writable roots; --add-dir adds a root); meanwhile choose another approach.",
    )
    expect(permissionEvents(id)).toEqual([{ callId: 'call_t1s1_1', tool: 'bash', mode: 'ask', decision: 'deny', by: 'mode' }])
  })
})
