/**
 * Where the host's diagnostics go while a chat runs. The host is composed with `log` before any
 * screen exists, and by default its lines go to the fallback (stderr). The full-screen UI
 * attaches its own sink for as long as it draws, so a warning or an automatic-compaction notice
 * shows in the transcript instead of being written over the screen (and lost at the next frame).
 */

/** A diagnostics sink that a front end can take over. */
export interface DiagnosticsRelay {
  /** The sink to compose the host with: the attached one, else the fallback. Never throws. */
  readonly log: (line: string) => void
  /** Sends lines to `sink` instead of the fallback until the returned function is called. */
  attach(sink: (line: string) => void): () => void
}

/** Creates a relay over `fallback`. */
export function createDiagnosticsRelay(fallback: (line: string) => void): DiagnosticsRelay {
  let current: ((line: string) => void) | undefined
  return {
    log: (line) => (current ?? fallback)(line),
    attach(sink) {
      current = sink
      return () => {
        if (current === sink) current = undefined
      }
    },
  }
}
