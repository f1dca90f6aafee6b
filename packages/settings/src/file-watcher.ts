/**
 * Watches one file for changes, robustly against the ways editors save: it watches the parent
 * directory (an editor's write-temp-then-rename replaces the file's inode, which a watch on the
 * file itself would lose), filters events by file name and debounces bursts into one callback.
 * When the directory does not exist or disappears, it falls back to stat polling until the file
 * shows up again, then resumes the directory watch.
 */
import { existsSync, unwatchFile, watch, watchFile, type FSWatcher } from 'node:fs'
import { basename, dirname } from 'node:path'

/** Options of {@link watchFileChanges}. */
export interface FileWatcherOptions {
  /** Absolute path of the watched file. */
  readonly file: string
  /** Quiet period that coalesces a burst of events into one callback. */
  readonly debounceMs: number
  /** Stat polling interval used while the directory cannot be watched. */
  readonly pollIntervalMs: number
  /** Called (debounced) after the file may have changed, appeared or disappeared. */
  readonly onChange: () => void
}

/** A running watch. */
export interface FileWatcher {
  /** Stops watching; no callback fires afterwards. Idempotent. */
  close(): void
}

/** Starts watching `options.file`. Never keeps the process alive on its own. */
export function watchFileChanges(options: FileWatcherOptions): FileWatcher {
  const { file, debounceMs, pollIntervalMs, onChange } = options
  const directory = dirname(file)
  const name = basename(file)
  let closed = false
  let timer: NodeJS.Timeout | undefined
  let directoryWatcher: FSWatcher | undefined
  let polling = false

  const schedule = (): void => {
    if (closed) return
    clearTimeout(timer)
    timer = setTimeout(() => {
      timer = undefined
      if (!closed) onChange()
    }, debounceMs)
    timer.unref()
  }

  const onPoll = (): void => {
    schedule()
    if (watchDirectory()) stopPolling()
  }
  const startPolling = (): void => {
    if (polling || closed) return
    polling = true
    watchFile(file, { interval: pollIntervalMs, persistent: false }, onPoll)
  }
  const stopPolling = (): void => {
    if (!polling) return
    polling = false
    unwatchFile(file, onPoll)
  }
  const dropDirectoryWatch = (): void => {
    directoryWatcher?.close()
    directoryWatcher = undefined
    schedule()
    startPolling()
  }

  const watchDirectory = (): boolean => {
    if (closed) return false
    try {
      const watcher = watch(directory, { persistent: false }, (_event, filename) => {
        if (filename === null || filename === name) schedule()
        else if (filename === basename(directory) && !existsSync(directory)) dropDirectoryWatch()
      })
      watcher.on('error', dropDirectoryWatch)
      directoryWatcher = watcher
      return true
    } catch {
      // Swallowed: the directory is missing (ENOENT) or the OS refused another watch (ENOSPC,
      // EMFILE); polling covers both, so the failure only changes how changes are noticed.
      return false
    }
  }

  if (!watchDirectory()) startPolling()

  return {
    close() {
      if (closed) return
      closed = true
      clearTimeout(timer)
      directoryWatcher?.close()
      directoryWatcher = undefined
      stopPolling()
    },
  }
}
