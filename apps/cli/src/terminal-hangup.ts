/**
 * A terminal that hangs up (its window is closed while dsh runs) ends dsh like SIGHUP, with exit
 * code 129, instead of crashing it on the way out:
 *
 * 1. Node 20 puts each standard stream that was a terminal back in its starting mode when the
 *    process exits, and aborts (SIGABRT or SIGSEGV, "Assertion failed" in `ResetStdio`,
 *    nodejs/node#51519, fixed in later Node versions) when that terminal is gone. It skips
 *    descriptors that are closed by then, so at exit the ones that were a terminal at start and no
 *    longer are one are closed first.
 * 2. A write that fails with `EIO` is the same hang-up seen from the output side; it is turned
 *    into the SIGHUP that accompanies it while a command's shutdown path (`shutdown.ts`) listens,
 *    so that path runs; otherwise dsh exits with the code decided so far.
 */
import { closeSync } from 'node:fs'
import { isatty } from 'node:tty'

/** Installs the exit hook of step 1; call once, at process start. */
export function survivesTerminalHangup(): void {
  const terminals = [0, 1, 2].filter((fd) => isatty(fd))
  if (terminals.length === 0) return
  process.on('exit', () => {
    for (const fd of terminals) {
      if (isatty(fd)) continue
      try {
        closeSync(fd)
      } catch {
        // Already closed (EBADF): Node skips a closed descriptor just the same.
      }
    }
  })
}

/**
 * Step 2: a hung-up terminal seen as a write error. While a shutdown guard listens for SIGHUP it
 * gets one (a repeat while its path runs changes nothing). Otherwise nothing more is done: the
 * guard's path has run and is finishing (closing the turn), or the command has none and ends by
 * itself (with `nohup`, SIGHUP is ignored and dsh rightly goes on); the exit hook of step 1 keeps
 * the exit clean either way.
 */
export function hangUp(): void {
  if (process.listenerCount('SIGHUP') > 0) process.kill(process.pid, 'SIGHUP')
}
