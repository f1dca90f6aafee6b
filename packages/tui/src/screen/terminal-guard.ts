/**
 * Puts the terminal back on every way out of the full-screen UI: a normal end, `process.exit`,
 * an uncaught exception or rejection (restored before Node prints it), and SIGTERM / SIGHUP /
 * SIGINT sent by another process (restored, then the chat is asked to end with the signal's exit
 * code; Ctrl-C typed at the keyboard arrives as a key in raw mode, not as SIGINT). Restoring runs
 * once.
 */

/** Signals that end the chat, with their exit codes. */
const endingSignals = { SIGTERM: 143, SIGHUP: 129, SIGINT: 130 } as const

/** Installs the guard; returns its remover (which does not restore). */
export function guardTerminal(options: { readonly restore: () => void; readonly onSignal: (exitCode: number) => void }): () => void {
  let restored = false
  const restore = (): void => {
    if (restored) return
    restored = true
    options.restore()
  }
  const onCrash = (): void => restore()
  const handlers = Object.entries(endingSignals).map(([signal, code]) => {
    const handler = (): void => {
      restore()
      options.onSignal(code)
    }
    process.on(signal, handler)
    return [signal, handler] as const
  })
  process.on('exit', onCrash)
  process.on('uncaughtExceptionMonitor', onCrash)
  return () => {
    process.removeListener('exit', onCrash)
    process.removeListener('uncaughtExceptionMonitor', onCrash)
    for (const [signal, handler] of handlers) process.removeListener(signal, handler)
  }
}
