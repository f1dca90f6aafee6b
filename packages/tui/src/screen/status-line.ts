/**
 * The status line above the editor: model, working directory, additional roots, approval mode,
 * context in use, session cost (when prices are known) and, while a step runs, a spinner with
 * the elapsed time. One line, cut to the width.
 */
import { truncateToWidth, type Component } from '@mariozechner/pi-tui'
import type { Theme } from '../theme.ts'
import { elapsed, type StatusSnapshot } from '../status/status-snapshot.ts'
import { spinnerAt } from './tool-row.ts'

/** The parts of a status line, in order (without the running part). */
export function statusParts(status: StatusSnapshot): string[] {
  return [
    status.model,
    status.cwd,
    ...(status.roots > 0 ? [`+${status.roots} ${status.roots === 1 ? 'root' : 'roots'}`] : []),
    status.approvals,
    ...(status.context === undefined ? [] : [status.context]),
    ...(status.cost === undefined ? [] : [status.cost]),
  ]
}

/** The status line component; `update` sets a new reading. */
export class StatusLine implements Component {
  readonly #theme: Theme
  readonly #now: () => number
  #status: StatusSnapshot

  constructor(options: { readonly theme: Theme; readonly now: () => number; readonly status: StatusSnapshot }) {
    this.#theme = options.theme
    this.#now = options.now
    this.#status = options.status
  }

  update(status: StatusSnapshot): void {
    this.#status = status
  }

  render(width: number): string[] {
    const t = this.#theme
    const since = this.#status.runningSince
    const running = since === undefined ? '' : `${t.cyan(spinnerAt(this.#now()))} ${elapsed(this.#now() - since)} · `
    return [truncateToWidth(`${running}${t.dim(statusParts(this.#status).join(' · '))}`, width)]
  }

  invalidate(): void {
    // Nothing cached.
  }
}
