/**
 * `bash`: runs a shell command in the session cwd (see process-group.ts for how it is run and
 * killed). A non-zero exit is a normal result that shows the code; a timeout or a cancellation
 * is an error result. Never reports touched paths.
 *
 * What a command leaves running in the background (`cmd &`, `nohup`, `setsid`) is ended when the
 * call finishes, unless the tool was created with a {@link ToolProcesses} tracker: then it keeps
 * running (a dev server for later calls) until the tracker's `endAll`, which the composition runs
 * when its host ends. The description tells the model which of the two applies.
 */
import { randomBytes } from 'node:crypto'
import type { ProcessLauncher, ToolDefinition, ToolOutput, ToolRunContext } from '@dsh/contracts'
import { z } from 'zod'
import { endProcesses } from './process-ending.ts'
import { runInProcessGroup, type ProcessGroupResult } from './process-group.ts'
import type { ToolProcesses } from './tool-processes.ts'
import { errorResult } from './tool-result.ts'

/** Default timeout in milliseconds. */
export const BASH_DEFAULT_TIMEOUT_MS = 120_000
/** Largest accepted timeout in milliseconds. */
export const BASH_MAX_TIMEOUT_MS = 600_000
/** Output budget in characters (first and last halves kept). */
export const BASH_MAX_OUTPUT_CHARS = 30_000
/** Time between SIGTERM and SIGKILL when the command is stopped. */
export const BASH_KILL_GRACE_MS = 2_000

const parameters = z.strictObject({
  command: z.string().min(1).describe('The command line to run with bash -c.'),
  timeout_ms: z
    .number()
    .int()
    .min(1)
    .max(BASH_MAX_TIMEOUT_MS)
    .optional()
    .describe(`Kill the command after this many milliseconds. Default: ${BASH_DEFAULT_TIMEOUT_MS}; maximum: ${BASH_MAX_TIMEOUT_MS}.`),
  description: z.string().optional().describe('A few words on what the command does, for the user.'),
})

/** Arguments of `bash`. */
export type BashArgs = z.infer<typeof parameters>

function shownOutput(run: ProcessGroupResult): string {
  return run.output === '' ? '(no output)' : run.output.replace(/\n$/, '')
}

/** The model-visible result of a finished run; `keepsBackground` says whether background processes outlive the call. */
export function bashResult(run: ProcessGroupResult, timeoutMs: number, keepsBackground = false): ToolOutput {
  const meta = { exitCode: run.exitCode, exitSignal: run.exitSignal, ended: run.ended, droppedChars: run.droppedChars }
  switch (run.ended) {
    case 'spawn-error':
      return errorResult(`Could not start bash: ${run.error ?? 'unknown error'}. Check that the working directory exists.`, meta)
    case 'timeout':
      return errorResult(
        `${shownOutput(run)}\n\n[Timed out after ${timeoutMs} ms; the command and every process it started were killed. ` +
          `If it needs longer, pass a larger timeout_ms (max ${BASH_MAX_TIMEOUT_MS})` +
          (keepsBackground ? ', or run it in the background with output redirected to a file and check the file later.]' : '.]'),
        meta,
      )
    case 'aborted':
      return errorResult(
        `${shownOutput(run)}\n\n[Cancelled: the command and every process it started were killed before it finished.]`,
        meta,
      )
    default: {
      const status = run.exitCode !== null ? `Exit code: ${run.exitCode}` : `Terminated by signal ${run.exitSignal ?? 'unknown'}`
      return { content: `${shownOutput(run)}\n\n[${status}]`, meta }
    }
  }
}

/** Options of {@link createBashTool}. */
export interface BashToolOptions {
  /** Keeps what commands leave running in the background until `processes.endAll()`; without it, it ends with each call. */
  readonly processes?: ToolProcesses
  /**
   * Wraps each command's launch (the composition passes the sandbox); its `explain` note is
   * appended to the result when the output shows the sandbox refused something.
   */
  readonly launcher?: ProcessLauncher
}

/** The session a launch of this call belongs to (`LaunchRequest.session`): a subagent's parent, else its own. */
export function launchSessionOf(run: ToolRunContext): string | undefined {
  const header = run.execution.agent?.session.header
  return header === undefined ? undefined : (header.parentSession ?? header.id)
}

/** The session's writable roots (the working directory alone without a filesystem). */
export function writableRootsOf(run: ToolRunContext): readonly string[] {
  try {
    return run.fs.writableRoots()
  } catch {
    // No filesystem is configured (bare tests): the working directory is all a session owns.
    return [run.cwd]
  }
}

function description(keepsBackground: boolean, sandboxed: boolean): string {
  return (
    'Runs a command with bash -c in the working directory and returns its combined stdout and stderr, ' +
    'followed by the exit code. Stdin is closed, so interactive programs fail: use non-interactive flags. ' +
    `The command and every process it started are killed after timeout_ms (default ${BASH_DEFAULT_TIMEOUT_MS}, ` +
    `max ${BASH_MAX_TIMEOUT_MS}). ` +
    (keepsBackground
      ? sandboxed
        ? 'Processes it starts in the background (cmd &) keep running after it returns, until the session ends. Each command sees only its own processes, so a later command cannot kill them: start one with a time limit (timeout 600 cmd &) if it should stop earlier. '
        : 'Processes it starts in the background (cmd &) keep running after it returns, until the session ends; stop them with kill when they are no longer needed. '
      : 'Processes it starts in the background (cmd &) are stopped when it returns. ') +
    `Output over ${BASH_MAX_OUTPUT_CHARS} characters keeps its start and end. ` +
    'A non-zero exit code is reported as output, not as a failure. Prefer read, glob and grep for files.'
  )
}

/** Creates the `bash` tool. */
export function createBashTool(options: BashToolOptions = {}): ToolDefinition<BashArgs> {
  const { processes, launcher } = options
  const keepsBackground = processes !== undefined
  return {
    name: 'bash',
    description: description(keepsBackground, launcher !== undefined),
    parameters,
    async execute(args, run) {
      const timeoutMs = args.timeout_ms ?? BASH_DEFAULT_TIMEOUT_MS
      const result = await runInProcessGroup(args.command, {
        cwd: run.cwd,
        timeoutMs,
        signal: run.signal,
        maxOutputChars: BASH_MAX_OUTPUT_CHARS,
        killGraceMs: BASH_KILL_GRACE_MS,
        marker: processes?.nextMarker() ?? `${process.pid}.${randomBytes(6).toString('hex')}`,
        afterExit: async ({ pgid, selection }) => {
          if (processes?.keep(pgid) !== true) await endProcesses(selection, { graceMs: BASH_KILL_GRACE_MS })
        },
        launcher,
        writableRoots: writableRootsOf(run),
        outlivesCall: keepsBackground,
        ...(run.output === undefined ? {} : { onOutput: run.output }),
        session: launchSessionOf(run),
      })
      const output = bashResult(result, timeoutMs, keepsBackground)
      // Explained also when it never started: the launcher then knows the launch is over.
      const explained = launcher?.explain(result.output, result.plan)
      const note = result.ended === 'spawn-error' ? undefined : explained
      return note === undefined ? output : { ...output, content: `${output.content}\n${note}` }
    },
  }
}

/** `bash` without a tracker: background processes end with each call. */
export const bashTool: ToolDefinition<BashArgs> = createBashTool()
