/** The cwd's sessions, newest first, with title and time; a click opens (resumes) one. */
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
            <button type="button" class={row.id === props.current ? 'session current' : 'session'} aria-current={row.id === props.current ? 'true' : undefined} onClick={() => props.open(row.id)}>
              <span class="session-title">{row.title === '' ? t.untitled : row.title}</span>
              <span class="session-meta">
                <time dateTime={row.updatedAt}>{timeOf(row.updatedAt)}</time>
                {row.busy ? ` · ${t.running}` : row.live ? ` · ${t.live}` : ''}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  )
}
