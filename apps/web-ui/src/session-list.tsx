/** The cwd's sessions, newest first, with title, time and state ("needs your answer" while a question waits); a click opens (resumes) one. */
import type { JSX } from 'preact'
import type { SessionRow } from './api-types.ts'
import { useStrings } from './i18n.ts'

const timeOf = (iso: string): string => new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })

export function SessionList(props: { readonly rows: readonly SessionRow[]; readonly current: string; readonly open: (id: string | undefined) => void }): JSX.Element {
  const t = useStrings()
  return (
    <nav class="sessions" aria-label={t.sessions}>
      <div class="sessions-head">
        <h2>{t.sessions}</h2>
        <button type="button" onClick={() => props.open(undefined)}>
          {t.newSession}
        </button>
      </div>
      <ul>
        {props.rows.map((row) => (
          <li key={row.id}>
            <button type="button" class={`session${row.id === props.current ? ' current' : ''}${row.waiting ? ' waiting' : ''}`} aria-current={row.id === props.current ? 'true' : undefined} onClick={() => props.open(row.id)}>
              <span class="session-title">{row.title === '' ? t.untitled : row.title}</span>
              <span class="session-meta">
                <time dateTime={row.updatedAt}>{timeOf(row.updatedAt)}</time>
                {row.busy && !row.waiting ? ` · ${t.running}` : row.live && !row.waiting ? ` · ${t.live}` : ''}
              </span>
              {row.waiting ? <span class="needs-answer">{t.needsAnswer}</span> : null}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  )
}
