/**
 * The `run_code` tool (Code Mode): runs a JavaScript snippet in a child Node process whose async
 * `tools` object dispatches nested calls through the full tool pipeline with this execution as
 * their parent. Nested additional contexts are deferred by `run.dispatch` onto this call's outer
 * result, so they enter history only after it; nested `touched` paths stay on the nested outcomes.
 * Every nested dispatch also gets the run's stop signal, so it is cancelled when the snippet ends.
 */
import type { ProcessLauncher, ToolDefinition } from '@dsh/contracts'
import { launchSessionOf, writableRootsOf, type ToolProcesses } from '@dsh/tools'
import { z } from 'zod'
import { formatRun } from './result-text.ts'
import { runSnippet, type NestedReply } from './snippet-process.ts'

/** Options of {@link createRunCodeTool}. */
export interface RunCodeOptions {
  /** Default time limit per snippet in ms (default 60000, at most 600000). */
  readonly timeoutMs?: number
  /** Characters of output (and of the returned value) kept, head and tail (default 30000). */
  readonly maxOutputChars?: number
  /** Node.js binary that runs snippets (default `process.execPath`). */
  readonly nodePath?: string
  /**
   * The host's tracker of tool processes: snippets take their markers from it, so its
   * `killAllNow` (the CLI's exit hook) also ends what a running snippet started when dsh exits
   * abruptly (a closed terminal). Without one, each snippet's processes are ended with it only.
   */
  readonly processes?: Pick<ToolProcesses, 'nextMarker'>
  /**
   * Wraps each snippet process's launch (the composition passes the shell sandbox); its `explain`
   * note is appended to the result when the output shows the sandbox refused a write.
   */
  readonly launcher?: ProcessLauncher
}

/** Upper bound of both the option and the per-call `timeout_ms`. */
export const MAX_TIMEOUT_MS = 600_000

function checkedInteger(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`createRunCodeTool: ${name} must be an integer between ${min} and ${max} (got ${value})`)
  }
  return value
}

function argumentsSchema(defaultTimeoutMs: number) {
  return z.object({
    code: z
      .string()
      .min(1)
      .describe("JavaScript run as the body of an async function: use await and return directly. Call other tools as await tools.<name>({ ...args }), e.g. await tools.read({ file_path: 'src/a.ts' })."),
    timeout_ms: z
      .number()
      .int()
      .positive()
      .max(MAX_TIMEOUT_MS)
      .optional()
      .describe(`Time limit in milliseconds (default ${defaultTimeoutMs}, at most ${MAX_TIMEOUT_MS}). The snippet and everything it started is killed when it runs over.`),
  })
}

/** Arguments of `run_code`. */
export type RunCodeArgs = z.infer<ReturnType<typeof argumentsSchema>>

function description(defaultTimeoutMs: number, maxOutputChars: number): string {
  return [
    'Run a JavaScript snippet in a separate Node.js process and get its console output and return value. Use it to chain several tool calls with logic in between (loops, filtering, aggregation) in one step instead of many.',
    "The code is the body of an async function: use await and return directly. Inside it, tools.<name>(args) calls any other tool you can call directly, with the same arguments object, e.g. const text = await tools.read({ file_path: 'src/a.ts' }). A call resolves to the tool's result text; a failed call rejects with a ToolCallError whose message is the tool's error text (catch it to continue). run_code itself cannot be called from a snippet.",
    "console.log and console.error output is captured. A returned string is shown verbatim, any other value as JSON. Load Node modules with await import('node:fs/promises'); import statements are not allowed. The working directory is the session's.",
    `Output is capped at ${maxOutputChars} characters (head and tail kept) and time at timeout_ms (default ${defaultTimeoutMs} ms). The snippet runs with the same rights as a shell command; it is not a sandbox.`,
  ].join('\n\n')
}

/** Creates the `run_code` tool. */
export function createRunCodeTool(options: RunCodeOptions = {}): ToolDefinition<RunCodeArgs> {
  const defaultTimeoutMs = checkedInteger('timeoutMs', options.timeoutMs ?? 60_000, 1, MAX_TIMEOUT_MS)
  const maxOutputChars = checkedInteger('maxOutputChars', options.maxOutputChars ?? 30_000, 100, 10_000_000)
  const nodePath = options.nodePath ?? process.execPath
  return {
    name: 'run_code',
    description: description(defaultTimeoutMs, maxOutputChars),
    parameters: argumentsSchema(defaultTimeoutMs),
    async execute(args, run) {
      const timeoutMs = args.timeout_ms ?? defaultTimeoutMs
      const snippet = await runSnippet({
        code: args.code,
        cwd: run.cwd,
        nodePath,
        timeoutMs,
        maxOutputChars,
        signal: run.signal,
        ...(options.processes === undefined ? {} : { marker: options.processes.nextMarker() }),
        ...(options.launcher === undefined ? {} : { launcher: options.launcher, writableRoots: writableRootsOf(run), session: launchSessionOf(run) }),
        onCall: async (name, nestedArgs, stop): Promise<NestedReply> => {
          const outcome = await run.dispatch(name, nestedArgs, { signal: stop })
          return { isError: outcome.isError, content: outcome.content, status: outcome.status }
        },
      })
      const output = formatRun(snippet, { timeoutMs, maxTimeoutMs: MAX_TIMEOUT_MS, maxOutputChars, nodePath })
      const note = snippet.plan === undefined ? undefined : options.launcher?.explain(output.content, snippet.plan)
      return note === undefined ? output : { ...output, content: `${output.content}\n${note}` }
    },
  }
}
