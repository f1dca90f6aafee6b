/**
 * A host over a temp tree with the real local filesystem and the core tools, the same parts the
 * CLI composes, for tests of plugins and tools. Only the model is scripted.
 */
import type { ChatRequestBody, ToolDefinition } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { createScriptedProvider, type ModelScript } from '@dsh/llm-scripted'
import { createHost, type Agent, type Host } from '@dsh/runtime'
import { coreTools } from '@dsh/tools'

/** Options of {@link composeTestHost}. */
export interface TestHostOptions {
  /** Resolved `$DSH_HOME`. */
  readonly dshHome: string
  /** Writable roots (usually the workspace); every session's tools may write in them. */
  readonly writableRoots: readonly string[]
  /** Extra tools besides the core six. */
  readonly extraTools?: readonly ToolDefinition[]
}

/** A test host plus a helper that starts scripted agents and records their requests. */
export interface TestHost {
  readonly host: Host
  /** Every request body sent by agents started with {@link TestHost.start}. */
  readonly requests: ChatRequestBody[]
  /** Log lines the host wrote. */
  readonly logs: string[]
  /** Starts (or resumes) an agent over a script. */
  start(options: { readonly cwd: string; readonly script: ModelScript; readonly resume?: string }): Promise<Agent>
}

/** Composes the test host. */
export async function composeTestHost(options: TestHostOptions): Promise<TestHost> {
  const logs: string[] = []
  const requests: ChatRequestBody[] = []
  const host = await createHost({
    dshHome: options.dshHome,
    fs: createLocalFileSystem({ writableRoots: options.writableRoots }),
    sharedWritableRoots: options.writableRoots,
    tools: [...coreTools(), ...(options.extraTools ?? [])],
    log: (line) => logs.push(line),
  })
  return {
    host,
    requests,
    logs,
    start: (start) =>
      host.startAgent({
        cwd: start.cwd,
        provider: createScriptedProvider(start.script),
        onRequest: (body) => requests.push(body),
        ...(start.resume === undefined ? {} : { resume: start.resume }),
      }),
  }
}
