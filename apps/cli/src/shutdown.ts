/**
 * The one shutdown path of the commands that run an agent (`dsh run`, `dsh chat`). SIGTERM, SIGHUP
 * and SIGINT (for `dsh run`; the chat reads Ctrl-C itself and calls `trigger` on the second one) all
 * end dsh the way a cancel does: `onSignal` cancels the running step (its tool's process group gets
 * SIGTERM, then SIGKILL after the grace period), the turn is closed as cancelled, the command
 * disposes its host (the session lock is released, and what tool calls left running is ended),
 * and the command exits with 128 + the signal number (129 / 130 / 143).
 *
 * Two backstops keep that promise when the orderly path cannot finish: a deadline after which the
 * process exits anyway, and an `exit` hook that SIGKILLs, synchronously, whatever tool calls left
 * running (also when dsh exits for another reason, such as a broken output pipe).
 */
import type { ToolProcesses } from '@dsh/tools'

/** Exit code of each signal that ends dsh: 128 + its number. */
export const signalExitCodes = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const

/** A signal that ends dsh. */
export type ShutdownSignal = keyof typeof signalExitCodes

/** How long the orderly path may take before the process exits anyway. */
export const SHUTDOWN_DEADLINE_MS = 10_000

/** Options of {@link guardShutdown}. */
export interface ShutdownOptions {
  /** Process signals to catch (the chat leaves SIGINT to its line input). */
  readonly signals: readonly ShutdownSignal[]
  /** Starts the orderly path (cancel what runs); called once, for the first signal. */
  readonly onSignal: (signal: ShutdownSignal) => void
  /** What tool calls left running: SIGKILLed if the process exits before the host ended it. */
  readonly processes: ToolProcesses
  /** Overrides {@link SHUTDOWN_DEADLINE_MS}. */
  readonly deadlineMs?: number
}

/** A guard installed for the life of one command. */
export interface ShutdownGuard extends Disposable {
  /** The signal that started the shutdown, if any. */
  readonly signal: ShutdownSignal | undefined
  /** The exit code for that signal, if any. */
  readonly exitCode: number | undefined
  /** Starts the shutdown as if `signal` had arrived (the chat's second Ctrl-C). */
  trigger(signal: ShutdownSignal): void
}

/** Installs the signal handlers and the exit hook; dispose it once the host is disposed. */
export function guardShutdown(options: ShutdownOptions): ShutdownGuard {
  let received: ShutdownSignal | undefined
  const onExit = (): void => options.processes.killAllNow()
  const trigger = (signal: ShutdownSignal): void => {
    // A repeated signal changes nothing: the orderly path is under way, and the deadline bounds it.
    if (received !== undefined) return
    received = signal
    // Decided now: whatever ends the process from here on (an exit on a hung-up terminal) exits so.
    process.exitCode = signalExitCodes[signal]
    const deadline = setTimeout(() => {
      options.processes.killAllNow()
      process.exit(signalExitCodes[signal])
    }, options.deadlineMs ?? SHUTDOWN_DEADLINE_MS)
    // The deadline only ever shortens a shutdown; it never keeps the process alive by itself.
    deadline.unref()
    options.onSignal(signal)
  }
  const listeners = options.signals.map((signal) => [signal, () => trigger(signal)] as const)
  for (const [signal, listener] of listeners) process.on(signal, listener)
  process.on('exit', onExit)
  return {
    get signal() {
      return received
    },
    get exitCode() {
      return received === undefined ? undefined : signalExitCodes[received]
    },
    trigger,
    [Symbol.dispose]: () => {
      for (const [signal, listener] of listeners) process.removeListener(signal, listener)
      process.removeListener('exit', onExit)
    },
  }
}
