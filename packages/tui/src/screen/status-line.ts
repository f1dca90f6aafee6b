/**
 * The status line above the editor: model, working directory, additional roots, approval mode,
 * context in use, the session's cache-hit share (when the provider reports it), session cost (when
 * prices are known) and, while a step runs, a spinner with the elapsed time — or "waiting for you"
 * while a question or picker waits for the person (nothing is being worked on). One line: when it is
 * too wide, the context, cache and cost figures stay and the
 * rest gives way (the model label is shortened, then the approval mode, the directory, the roots
 * and finally the model are left out; the banner and `/status` still show them).
 */
import { truncateToWidth, visibleWidth, type Component } from '@mariozechner/pi-tui'
import type { Theme } from '../theme.ts'
import { elapsed, type StatusSnapshot } from '../status/status-snapshot.ts'
import { separator, shortLabel } from './fit-parts.ts'
import { spinnerAt } from './tool-row.ts'
import { WAITING } from './waiting.ts'

/** The parts of a status line, in order (without the running part). */
export function statusParts(status: StatusSnapshot): string[] {
  return [
    status.model,
    status.cwd,
    ...(status.roots > 0 ? [`+${status.roots} ${status.roots === 1 ? 'root' : 'roots'}`] : []),
    status.approvals,
    ...figureParts(status),
  ]
}

/** Context in use, cache-hit share and cost: the parts that always stay. */
function figureParts(status: StatusSnapshot): string[] {
  return [...(status.context === undefined ? [] : [status.context]), ...(status.cache === undefined ? [] : [status.cache]), ...(status.cost === undefined ? [] : [status.cost])]
}

/** The parts that fit `width` columns, dropped and shortened as the header says. */
export function fittedStatusParts(status: StatusSnapshot, width: number): string[] {
  const model = shortLabel(status.model)
  const roots = status.roots > 0 ? [`+${status.roots} ${status.roots === 1 ? 'root' : 'roots'}`] : []
  const figures = figureParts(status)
  const candidates = [statusParts(status), statusParts({ ...status, model }), [model, status.cwd, ...roots, ...figures], [model, ...roots, ...figures], [model, ...figures], figures]
  return candidates.find((parts) => visibleWidth(parts.join(separator)) <= width) ?? [model, ...figures]
}

/** The status line component; `update` sets a new reading. */
export class StatusLine implements Component {
  readonly #theme: Theme
  readonly #now: () => number
  #status: StatusSnapshot

  readonly #waiting: () => boolean

  constructor(options: { readonly theme: Theme; readonly now: () => number; readonly status: StatusSnapshot; readonly waiting?: () => boolean }) {
    this.#theme = options.theme
    this.#now = options.now
    this.#status = options.status
    this.#waiting = options.waiting ?? (() => false)
  }

  update(status: StatusSnapshot): void {
    this.#status = status
  }

  render(width: number): string[] {
    const t = this.#theme
    const since = this.#status.runningSince
    const running = since === undefined ? '' : this.#waiting() ? `${t.yellow(WAITING)}${separator}` : `${t.cyan(spinnerAt(this.#now()))} ${elapsed(this.#now() - since)}${separator}`
    const parts = fittedStatusParts(this.#status, Math.max(1, width - visibleWidth(running)))
    return [truncateToWidth(`${running}${t.dim(parts.join(separator))}`, width)]
  }

  invalidate(): void {
    // Nothing cached.
  }
}
