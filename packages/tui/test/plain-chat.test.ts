// The plain line mode in-process with a pinned clock: the double Ctrl-C window, a typed line
// disarming it, a typed-ahead "y" never answering a permission question, Ctrl-C there cancelling
// the step, a failing turn not ending the chat, and "allow always" not asking twice.
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ToolDefinition } from '@dsh/contracts'
import { createScriptedProvider, type ModelScript } from '@dsh/llm-scripted'
import { createHost, type AskPermission, type Host } from '@dsh/runtime'
import { tempTree, type TempTree } from '@dsh/testkit'
import { createApprovalBroker } from '../src/approvals/approval-broker.ts'
import { installPermissionGuard } from '@dsh/permissions'
import { ChatController } from '../src/chat-controller.ts'
import type { ChatEnvironment } from '../src/chat-environment.ts'
import { LineInput } from '../src/plain/line-input.ts'
import { plainAsker } from '../src/plain/plain-asker.ts'
import { plainInterrupt, runPlainChat, type PlainChatOptions } from '../src/plain/plain-chat.ts'
import { PlainView } from '../src/plain/plain-view.ts'
import { registerChatCommands } from '../src/slash/chat-commands.ts'
import { SlashRegistry } from '../src/slash/slash-registry.ts'

/** A stand-in `bash` that records what it was asked to run. */
function fakeBash(ran: string[]): ToolDefinition<never> {
  const tool: ToolDefinition<{ command: string }> = {
    name: 'bash',
    description: 'Runs a command.',
    parameters: z.object({ command: z.string() }),
    execute: (args) => {
      ran.push(args.command)
      return Promise.resolve({ content: 'ran' })
    },
  }
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- ToolDefinition is invariant in A; the pipeline validates arguments with tool.parameters before execute.
  return tool as unknown as ToolDefinition<never>
}

let tree: TempTree
let host: Host | undefined
let input: LineInput | undefined
afterEach(async () => {
  input?.close()
  await host?.dispose()
  host = undefined
  await tree?.dispose()
})

async function chat(script: ModelScript) {
  tree = await tempTree({ 'work/': null })
  const ran: string[] = []
  const broker = createApprovalBroker({ autoApprove: false })
  // As the CLI composes it: the host asks through the guard's wrapper of the broker, which turns
  // "allow always" answers into session rules.
  let asker: AskPermission | undefined
  host = await createHost({ dshHome: tree.path('home'), tools: [fakeBash(ran)], log: () => undefined, askPermission: (execution, reason) => (asker ?? broker.askPermission)(execution, reason) })
  const provider = createScriptedProvider(script)
  const cwd = tree.path('work')
  // The chat's default policy: mode ask (bash asks), with a sandbox assumed available.
  asker = installPermissionGuard(host.ctx, { mode: 'ask', rules: () => ({ allow: [], deny: [] }), sandboxAvailable: () => true, ask: broker.askPermission, cwd }).askPermission
  const env: ChatEnvironment = {
    host,
    dshHome: tree.path('home'),
    cwd,
    version: 'test',
    model: { label: 'scripted', provider },
    startOptions: (resume) => ({ cwd, provider, ...(resume === undefined ? {} : { resume }) }),
    modelSummaries: false,
    inspectWorkspace: () => Promise.resolve([]),
    approvalMode: 'ask',
    env: {},
    log: () => undefined,
  }
  const stdin = new PassThrough()
  const out = new PassThrough()
  let output = ''
  out.on('data', (chunk: Buffer) => (output += chunk.toString()))
  let clock = 0
  const armed: { at?: number } = {}
  let options: PlainChatOptions | undefined
  const lineInput = new LineInput({ input: stdin, output: out, showPrompts: true, onInterrupt: () => (options === undefined ? undefined : plainInterrupt(options, armed)) })
  input = lineInput
  const view = new PlainView({ out, err: out, showReasoning: false, readLine: (prompt) => lineInput.ask(prompt, new AbortController().signal) })
  const registry = new SlashRegistry()
  registerChatCommands(registry)
  const controller = new ChatController({ env, view, registry, agent: await host.startAgent(env.startOptions()) })
  broker.attach(plainAsker(lineInput, view, { showChoices: true }))
  options = { controller, input: lineInput, view, interactive: true, out, now: () => clock }
  const done = runPlainChat(options, armed)
  const interrupt = (): void => plainInterrupt(options, armed)
  const until = async (pattern: RegExp): Promise<void> => {
    await expect.poll(() => output).toMatch(pattern)
  }
  return { controller, done, stdin, ran, until, interrupt, at: (ms: number) => (clock = ms), output: () => output }
}

describe('plain chat', () => {
  it('a second Ctrl-C exits only within two seconds, and a typed line disarms the first', async () => {
    const c = await chat({ responses: [{ text: 'Hi there.' }] })
    c.stdin.write('hello\n')
    await c.until(/Hi there\.\n> $/)
    c.at(1000)
    c.interrupt()
    await c.until(/press Ctrl-C again to exit, or type \/exit\)\n> $/)
    c.at(3500)
    c.interrupt()
    expect(c.output().match(/press Ctrl-C again/g)).toHaveLength(2)
    c.stdin.write('/nope\n')
    await c.until(/unknown command \/nope/)
    c.at(4000)
    c.interrupt()
    expect(c.output().match(/press Ctrl-C again/g)).toHaveLength(3)
    c.at(5999)
    c.interrupt()
    await c.done
    expect(c.controller.exiting).toBe(true)
  })

  it('a typed-ahead "y" never answers a permission question; Ctrl-C there cancels the step; a failed turn does not end the chat', async () => {
    const c = await chat({ responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf /' } }] }] })
    c.stdin.write('clean up\ny\n')
    await c.until(/Run bash: rm -rf \/\? \[y\/N\] $/)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(c.output()).toMatch(/\[y\/N\] $/)
    c.at(1000)
    c.interrupt()
    await c.until(/cancelled\n/)
    expect(c.ran).toEqual([])
    // The typed-ahead line then runs as a prompt; the script has no response left for it.
    await c.until(/error: .*ran out of responses.*\n> $/)
    c.stdin.write('/exit\n')
    await c.done
    expect(c.controller.failed).toBe(true)
  })

  it('"a" allows the command prefix for the session: a later call with it is not asked about', async () => {
    const c = await chat({ responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'npm test' } }] }, { toolCalls: [{ name: 'bash', arguments: { command: 'npm test -- --run' } }] }, { text: 'Both ran.' }] })
    c.stdin.write('test it\n')
    await c.until(/Run bash: npm test\? \[y\/N\] $/)
    // A person sees every answer and the key that picks it.
    expect(c.output()).toContain(
      [
        '  y       Yes, run it once',
        '  a       Yes, and allow "npm test …" for the rest of this session',
        '  t       Yes, and allow every bash call for the rest of this session',
        '  n: WHY  No, and tell the model WHY',
        '  n       No (also Enter)',
        'Run bash: npm test? [y/N] ',
      ].join('\n'),
    )
    c.stdin.write('a\n')
    await c.until(/Both ran\.\n> $/)
    expect(c.ran).toEqual(['npm test', 'npm test -- --run'])
    expect(c.output().match(/\[y\/N\]/g)).toHaveLength(1)
    c.stdin.write('/status\n')
    await c.until(/approvals: {2}ask; allowed for this session: bash: npm test …/)
    c.stdin.write('/exit\n')
    await c.done
  })
})
