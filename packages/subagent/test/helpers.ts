// Shared fixtures for subagent tests: a host with the subagent tool over a temp home, scripted models.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import type { ChatRequestBody, ToolDefinition } from '@dsh/contracts'
import { createScriptedProvider, type ModelScript } from '@dsh/llm-scripted'
import { createHost, readSessionFile, type Agent, type AutoCompactSettings, type Host } from '@dsh/runtime'
import { tempTree, type TempTree } from '@dsh/testkit'
import { createChildStarter, createSubagentTool } from '../src/index.ts'

/** A parsed session file (header + events). */
export type ParsedSessionFile = ReturnType<typeof readSessionFile>

/** The registry stores tools type-erased; every registration site performs this one widening. */
export function erased<A>(tool: ToolDefinition<A>): ToolDefinition<never> {
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- ToolDefinition is invariant in A; the pipeline validates arguments with tool.parameters before execute.
  return tool as unknown as ToolDefinition<never>
}

/** A tool that does nothing. */
export const noopTool: ToolDefinition<Record<string, never>> = { name: 'noop', description: 'Does nothing.', parameters: z.object({}), execute: () => Promise.resolve({ content: 'nothing done' }) }

/** A tool whose result is large (for compaction tests). */
export const bigTool: ToolDefinition<Record<string, never>> = { name: 'big', description: 'Returns a lot of text.', parameters: z.object({}), execute: () => Promise.resolve({ content: 'data '.repeat(4000) }) }

/** A tool that announces it started and then waits until its call is cancelled. */
export function hangTool(onStart: () => void): ToolDefinition<Record<string, never>> {
  return {
    name: 'hang',
    description: 'Waits until cancelled.',
    parameters: z.object({}),
    execute: (_args, run) =>
      new Promise((resolve) => {
        run.signal.addEventListener('abort', () => resolve({ isError: true, content: 'hang: cancelled' }), { once: true })
        onStart()
      }),
  }
}

/** Fixture options. */
export interface FixtureOptions {
  /** Script of every child (each child gets a fresh provider over it). */
  readonly childScript: ModelScript
  readonly maxDepth?: number
  readonly childMaxSteps?: number
  /** Automatic compaction of every child. */
  readonly childAutoCompact?: AutoCompactSettings
  readonly extraTools?: readonly ToolDefinition<never>[]
}

/** A host plus its temp tree. */
export interface Fixture {
  readonly tree: TempTree
  readonly host: Host
  readonly cwd: string
  /** Request bodies of the parent agent. */
  readonly requests: ChatRequestBody[]
  /** Request bodies of every child (the starter's `onRequest`). */
  readonly childRequests: ChatRequestBody[]
  /** Starts the top-level agent over `script`. */
  parent(script: ModelScript): Promise<Agent>
  dispose(): Promise<void>
}

/** Builds a host with `subagent` and `noop` registered. */
export async function fixture(options: FixtureOptions): Promise<Fixture> {
  const tree = await tempTree({ 'work/': null })
  const host = await createHost({ dshHome: tree.path('home'), tools: [erased(noopTool), ...(options.extraTools ?? [])], log: () => undefined })
  const childRequests: ChatRequestBody[] = []
  const startChild = createChildStarter(host, {
    provider: () => createScriptedProvider(options.childScript, { origin: 'child script' }),
    onRequest: (body) => childRequests.push(body),
    ...(options.childMaxSteps === undefined ? {} : { maxSteps: options.childMaxSteps }),
    ...(options.childAutoCompact === undefined ? {} : { autoCompact: options.childAutoCompact }),
  })
  host.tools.register(erased(createSubagentTool({ startChild, ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }) })))
  const cwd = tree.path('work')
  const requests: ChatRequestBody[] = []
  return {
    tree,
    host,
    cwd,
    requests,
    childRequests,
    parent: (script) => host.startAgent({ cwd, provider: createScriptedProvider(script, { origin: 'parent script' }), onRequest: (body) => requests.push(body) }),
    dispose: async () => {
      await host.dispose()
      await tree.dispose()
    },
  }
}

/** Every session file under `<dshHome>/sessions/`, parsed by the runtime's reader. */
export function storedSessions(f: Fixture): ParsedSessionFile[] {
  const directory = join(f.host.dshHome, 'sessions')
  return readdirSync(directory)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => readSessionFile(join(directory, name)))
}

/** The child sessions of `parentId`. */
export function childrenOf(f: Fixture, parentId: string): ParsedSessionFile[] {
  return storedSessions(f).filter((session) => session.header.parentSession === parentId)
}
