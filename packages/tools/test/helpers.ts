// Test helpers for the tools: a ToolRunContext on a real temp tree, and a call that validates
// arguments with the tool's schema first, as the pipeline does.
import { readFileSync } from 'node:fs'
import type { FileSystemPort, ToolDefinition, ToolOutput, ToolRunContext } from '@dsh/contracts'
// Relative import until the workspace link for @dsh/fs-local exists (created by the next npm install).
import { createLocalFileSystem } from '@dsh/fs-local'
import { realWaitFor } from '@dsh/testkit'

/** Options of {@link runContext}. */
export interface RunContextOptions {
  readonly cwd: string
  readonly fs?: FileSystemPort
  readonly signal?: AbortSignal
  /** Receives the running tool's output (`ToolRunContext.output`). */
  readonly output?: (text: string) => void
}

/** A run context for one call; `dispatch` and `deferContext` are not supported here. */
export function runContext(options: RunContextOptions): ToolRunContext {
  const signal = options.signal ?? new AbortController().signal
  return {
    cwd: options.cwd,
    fs: options.fs ?? createLocalFileSystem({ writableRoots: [options.cwd] }),
    signal,
    ...(options.output === undefined ? {} : { output: options.output }),
    execution: { callId: 'call-1', name: 'test', arguments: {}, signal, token: Symbol('call-1') },
    dispatch: () => Promise.reject(new Error('dispatch is not supported in tool tests')),
    deferContext: () => {
      throw new Error('deferContext is not supported in tool tests')
    },
  }
}

/** Validates `args` with the tool's schema, then runs it. */
export function call<A>(tool: ToolDefinition<A>, args: unknown, run: ToolRunContext): Promise<ToolOutput> {
  return tool.execute(tool.parameters.parse(args), run)
}

/** Exact text the model sees plus the error flag, for golden assertions. */
export function seen(output: ToolOutput): { isError: boolean; content: string } {
  return { isError: output.isError === true, content: output.content }
}

/** True while `pid` exists and is not a zombie waiting for a reaper. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    // ESRCH: no such process, which is exactly what "not alive" means here.
    return false
  }
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    // It exited between the signal probe and the read.
    return false
  }
  return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
}

/** Polls until `pid` is gone (true) or a hang guard generous for a loaded machine passed (false). */
export function eventuallyGone(pid: number): Promise<boolean> {
  return realWaitFor(() => !isAlive(pid))
}
