/**
 * The cwd's sessions, newest first, with title, time and state ("needs your answer" while a
 * question waits); a click opens (resumes) one, its × closes it. The closed sessions are listed
 * apart, folded under "Closed sessions (N)", each with Reopen. In a narrow window the list is a
 * drawer over the chat: it then starts with "Back to chat" and ends with the header's tools.
 */
import type { ComponentChildren, JSX } from 'preact'
import { useState } from 'preact/hooks'
import type { SessionRow } from './api-types.ts'
import { useStrings } from './i18n.ts'

const timeOf = (iso: string): string => new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })

export interface SessionListProps {
  readonly rows: readonly SessionRow[]
  readonly closed: readonly SessionRow[]
  readonly current: string
  /** Opens (resumes) a session; undefined starts a new one. A closed session opened is open again. */
  readonly open: (id: string | undefined) => void
  readonly close: (row: SessionRow) => void
  /** Narrow window: the list is a drawer; this hides it. */
  readonly onHide?: (() => void) | undefined
  /** Narrow window: what the header shows on a wide one (cwd, switches), at the drawer's end. */
  readonly children?: ComponentChildren
}

export function SessionList(props: SessionListProps): JSX.Element {
  const t = useStrings()
  const [showClosed, setShowClosed] = useState(false)
  const titleOf = (row: SessionRow): string => (row.title === '' ? t.untitled : row.title)
  return (
    <nav class="sessions" id="sessions-drawer" aria-label={t.sessions}>
      {props.onHide === undefined ? null : (
        <button type="button" class="drawer-back" onClick={props.onHide}>
          {t.backToChat}
        </button>
      )}
      <div class="sessions-head">
        <h2>{t.sessions}</h2>
        <button type="button" onClick={() => props.open(undefined)}>
          {t.newSession}
        </button>
      </div>
      <ul>
        {props.rows.map((row) => (
          <li key={row.id} class="session-row">
            <button type="button" class={`session${row.id === props.current ? ' current' : ''}${row.waiting ? ' waiting' : ''}`} aria-current={row.id === props.current ? 'true' : undefined} onClick={() => props.open(row.id)}>
              <span class="session-title">{titleOf(row)}</span>
              <span class="session-meta">
                <time dateTime={row.updatedAt}>{timeOf(row.updatedAt)}</time>
                {row.busy && !row.waiting ? ` · ${t.running}` : row.live && !row.waiting ? ` · ${t.live}` : ''}
              </span>
              {row.waiting ? <span class="needs-answer">{t.needsAnswer}</span> : null}
            </button>
            <button type="button" class="close-session" aria-label={t.closeSessionNamed(titleOf(row))} title={t.closeSession} onClick={() => props.close(row)}>
              ×
            </button>
          </li>
        ))}
      </ul>
      {props.closed.length === 0 ? null : (
        <div class="closed-sessions">
          <button type="button" class="closed-toggle" aria-expanded={showClosed} aria-controls="closed-sessions-list" onClick={() => setShowClosed((value) => !value)}>
            {showClosed ? '▾' : '▸'} {t.closedSessions(props.closed.length)}
          </button>
          {showClosed ? (
            <ul id="closed-sessions-list">
              {props.closed.map((row) => (
                <li key={row.id} class="session-row closed">
                  <span class="session">
                    <span class="session-title">{titleOf(row)}</span>
                    <span class="session-meta">
                      <time dateTime={row.updatedAt}>{timeOf(row.updatedAt)}</time>
                    </span>
                  </span>
                  <button type="button" class="reopen" aria-label={t.reopenNamed(titleOf(row))} onClick={() => props.open(row.id)}>
                    {t.reopen}
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      )}
      {props.children === undefined ? null : <div class="drawer-tools">{props.children}</div>}
    </nav>
  )
}
