/**
 * The question before closing a session that is busy: a turn runs (closing cancels it) or a
 * permission question waits (closing rejects it and stops the turn). "Close session" goes ahead,
 * "Keep it open" (the default button, also Esc) does nothing. An idle session closes without it:
 * closing keeps the log and can be undone from "Closed sessions".
 */
import type { JSX } from 'preact'
import { useEffect, useRef } from 'preact/hooks'
import type { SessionRow } from './api-types.ts'
import { useStrings } from './i18n.ts'

export function CloseDialog(props: { readonly row: SessionRow; readonly onAnswer: (close: boolean) => void }): JSX.Element {
  const t = useStrings()
  const dialog = useRef<HTMLDialogElement>(null)
  const confirmed = useRef(false)
  useEffect(() => {
    if (dialog.current?.open === false) dialog.current.showModal()
  }, [])
  const title = props.row.title === '' ? t.untitled : props.row.title
  return (
    <dialog ref={dialog} class="close-dialog" role="alertdialog" aria-labelledby="close-title" aria-describedby="close-what" onClose={() => props.onAnswer(confirmed.current)}>
      <h2 id="close-title">{t.closeConfirmTitle}</h2>
      <div id="close-what">
        <p>{props.row.waiting ? t.closeConfirmWaiting(title) : t.closeConfirmRunning(title)}</p>
        <p class="notice">{t.closeConfirmKept}</p>
      </div>
      <div class="buttons">
        <button
          type="button"
          class="danger"
          onClick={() => {
            confirmed.current = true
            dialog.current?.close()
          }}
        >
          {t.closeSession}
        </button>
        {/* oxlint-disable-next-line jsx-a11y/no-autofocus -- the safe answer is the default one in a modal question */}
        <button type="button" autofocus onClick={() => dialog.current?.close()}>
          {t.keepOpen}
        </button>
      </div>
    </dialog>
  )
}
