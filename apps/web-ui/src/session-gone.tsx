/**
 * What the main view shows when no chat can be: the session shown was closed (here, in another
 * tab or by a script), with Reopen and "New session"; or no session is open at all (after a
 * reload once every open session was closed).
 */
import type { JSX } from 'preact'
import { useStrings } from './i18n.ts'

export function SessionGone(props: { readonly closed?: string | undefined; readonly open: (id: string | undefined) => void }): JSX.Element {
  const t = useStrings()
  const { closed } = props
  return (
    <section class="chat gone" aria-label={t.sessions}>
      <div class="gone-body">
        {closed === undefined ? (
          <p>{t.noSessionOpen}</p>
        ) : (
          <>
            <p>{t.sessionClosed}</p>
            <p class="notice">{t.sessionClosedHint(closed)}</p>
          </>
        )}
        <div class="buttons">
          {closed === undefined ? null : (
            <button type="button" class="primary" onClick={() => props.open(closed)}>
              {t.reopen}
            </button>
          )}
          <button type="button" onClick={() => props.open(undefined)}>
            {t.newSession}
          </button>
        </div>
      </div>
    </section>
  )
}
