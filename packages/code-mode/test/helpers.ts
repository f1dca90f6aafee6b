// Shared fixtures for run_code tests: a host over a temp tree with a small `read` tool and run_code.
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { z } from 'zod'
import type { SessionEvent, ToolDefinition, ToolExecution, ToolFinalOutcome, UserMessage } from '@dsh/contracts'
import { createHost, createUserMessage, eventMessage, messageText, runToolCall, type Host, type PipelineDeps } from '@dsh/runtime'
import { isProcessAlive, realWaitFor, tempTree, type TempTree, type TreeSpec } from '@dsh/testkit'
import { createRunCodeTool, type RunCodeOptions } from '../src/index.ts'

/** A minimal read tool that reports the path it touched. */
export const readTool: ToolDefinition<{ file_path: string }> = {
  name: 'read',
  description: 'Reads a text file.',
  parameters: z.object({ file_path: z.string() }),
  execute: async (args, run) => {
    const path = resolve(run.cwd, args.file_path)
    try {
      return { content: await readFile(path, 'utf8'), touched: [{ path, kind: 'read' }] }
    } catch (error) {
      // A missing or unreadable file is an expected, model-visible failure of this test tool.
      return { isError: true, content: `Cannot read ${args.file_path}: ${error instanceof Error && 'code' in error ? String(error.code) : 'error'}.` }
    }
  },
}

/** The registry stores tools type-erased; every registration site performs this one widening. */
export function erased<A>(tool: ToolDefinition<A>): ToolDefinition<never> {
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- ToolDefinition is invariant in A; the pipeline validates arguments with tool.parameters before execute.
  return tool as unknown as ToolDefinition<never>
}

/** A host plus its temp tree. */
export interface Fixture {
  readonly tree: TempTree
  readonly host: Host
  readonly cwd: string
  readonly logs: string[]
  /** Runs one top-level call through the pipeline. */
  call(name: string, args: unknown, signal?: AbortSignal): Promise<ToolFinalOutcome>
  dispose(): Promise<void>
}

/** Builds a host whose cwd is `<tree>/work`, with `read` and `run_code`. */
export async function fixture(files: TreeSpec = {}, options: RunCodeOptions = {}): Promise<Fixture> {
  const tree = await tempTree({ 'work/': null, ...files })
  const logs: string[] = []
  const host = await createHost({
    dshHome: tree.path('home'),
    tools: [erased(readTool), erased(createRunCodeTool(options))],
    log: (line) => logs.push(line),
  })
  const cwd = tree.path('work')
  const deps: PipelineDeps = { ctx: host.ctx, registry: host.tools, fs: undefined, cwd, log: (line) => logs.push(line) }
  let calls = 0
  return {
    tree,
    host,
    cwd,
    logs,
    call: (name, args, signal = new AbortController().signal) => {
      calls += 1
      return runToolCall(deps, { callId: `top${calls}`, name, rawArguments: JSON.stringify(args), signal })
    },
    dispose: async () => {
      await host.dispose()
      await tree.dispose()
    },
  }
}

/** The `file_path` argument of an execution ('' when absent). */
export function filePathOf(exec: ToolExecution): string {
  const args = exec.arguments
  return typeof args === 'object' && args !== null && 'file_path' in args ? String(args.file_path) : ''
}

/** The text of a session event's message ('' for events without one). */
export function eventText(event: SessionEvent): string {
  const message = eventMessage(event)
  return message === undefined ? '' : messageText(message)
}

/** A plugin-sourced context message. */
export function note(text: string): UserMessage {
  return createUserMessage({ text, source: { kind: 'plugin', plugin: 'test', form: 'notice' } })
}

/** True while `pid` names a live (non-zombie) process. */
export const alive = isProcessAlive

/** Polls until `predicate` holds (real time, so also under a faked clock); false after a generous hang guard. */
export const waitFor = realWaitFor
