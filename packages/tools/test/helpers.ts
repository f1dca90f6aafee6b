// Test helpers for the tools: a ToolRunContext on a real temp tree, and a call that validates
// arguments with the tool's schema first, as the pipeline does.
import type { FileSystemPort, ToolDefinition, ToolOutput, ToolRunContext } from '@dsh/contracts'
// Relative import until the workspace link for @dsh/fs-local exists (created by the next npm install).
import { createLocalFileSystem } from '@dsh/fs-local'

/** Options of {@link runContext}. */
export interface RunContextOptions {
  readonly cwd: string
  readonly fs?: FileSystemPort
  readonly signal?: AbortSignal
}

/** A run context for one call; `dispatch` and `deferContext` are not supported here. */
export function runContext(options: RunContextOptions): ToolRunContext {
  const signal = options.signal ?? new AbortController().signal
  return {
    cwd: options.cwd,
    fs: options.fs ?? createLocalFileSystem({ writableRoots: [options.cwd] }),
    signal,
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
