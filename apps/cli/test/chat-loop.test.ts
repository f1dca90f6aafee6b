// The chat loop in-process with a pinned clock: the double Ctrl-C window, a typed line disarming
// it, cancelling a waiting permission question, and a failing command not ending the chat.
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ToolDefinition } from '@dsh/contracts'
import { createScriptedProvider, type ModelScript } from '@dsh/llm-scripted'
import { createHost, type Host } from '@dsh/runtime'
import { tempTree, type TempTree } from '@dsh/testkit'
import { ToolProcesses } from '@dsh/tools'
import type { AgentSetup } from '../src/agent-setup.ts'
import { createStyles } from '../src/chat/ansi.ts'
import { LineInput } from '../src/chat/line-input.ts'
import { guardCodeRunners, terminalAskPermission, type PermissionTerminal } from '../src/chat/permission.ts'
import { ChatRenderer } from '../src/chat/renderer.ts'
import { ChatLoop } from '../src/chat/session-loop.ts'

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
  let terminal: PermissionTerminal | undefined
  host = await createHost({ dshHome: tree.path('home'), tools: [fakeBash(ran)], log: () => undefined, askPermission: terminalAskPermission(() => terminal, false) })
  guardCodeRunners(host.ctx)
  const provider = createScriptedProvider(script)
  const setup: AgentSetup = { dshHome: tree.path('home'), cwd: tree.path('work'), config: {}, spec: { kind: 'scripted', file: 'x.json' }, provider, host, processes: new ToolProcesses(), log: () => undefined, startOptions: (resume) => ({ cwd: tree.path('work'), provider, ...(resume === undefined ? {} : { resume }) }) }
  const agent = await host.startAgent(setup.startOptions())
  const stdin = new PassThrough()
  const out = new PassThrough()
  let output = ''
  out.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const io = { stdout: out, stderr: out, env: {}, cwd: tree.root }
  const renderer = new ChatRenderer({ out, err: out, styles: createStyles(false), showReasoning: false })
  let clock = 0
  let loop: ChatLoop | undefined
  input = new LineInput({ input: stdin, output: out, editing: false, showPrompts: true, onInterrupt: () => loop?.interrupt() })
  terminal = { input, renderer }
  loop = new ChatLoop({ io, input, renderer, setup, agent, interactive: true, now: () => clock })
  const done = loop.run()
  const until = async (pattern: RegExp): Promise<void> => {
    for (let i = 0; i < 200 && !pattern.test(output); i++) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(output).toMatch(pattern)
  }
  return { loop, done, stdin, ran, until, at: (ms: number) => (clock = ms), output: () => output }
}

describe('chat loop', () => {
  it('a second Ctrl-C exits only within two seconds, and a typed line disarms the first', async () => {
    const c = await chat({ responses: [{ text: 'Hi there.' }] })
    c.stdin.write('hello\n')
    await c.until(/Hi there\.\n> $/)
    c.at(1000)
    c.loop.interrupt()
    await c.until(/press Ctrl-C again to exit, or type \/exit\)\n> $/)
    c.at(3500)
    c.loop.interrupt()
    expect(c.output().match(/press Ctrl-C again/g)).toHaveLength(2)
    c.stdin.write('/nope\n')
    await c.until(/unknown command \/nope/)
    c.at(4000)
    c.loop.interrupt()
    expect(c.output().match(/press Ctrl-C again/g)).toHaveLength(3)
    c.at(5999)
    c.loop.interrupt()
    await expect(c.done).resolves.toBe(0)
  })

  it('a typed-ahead "y" never answers a permission question; Ctrl-C there cancels the step; a failed turn does not end the chat', async () => {
    const c = await chat({ responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf /' } }] }] })
    c.stdin.write('clean up\ny\n')
    await c.until(/Run bash: rm -rf \/\? \[y\/N\] $/)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(c.output()).toMatch(/\[y\/N\] $/)
    c.at(1000)
    c.loop.interrupt()
    await c.until(/cancelled\n/)
    expect(c.ran).toEqual([])
    // The typed-ahead line then runs as a prompt; the script has no response left for it.
    await c.until(/error: .*ran out of responses.*\n> $/)
    c.stdin.write('/exit\n')
    await expect(c.done).resolves.toBe(0)
  })
})
