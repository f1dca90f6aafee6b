/**
 * The "Rewind to here" dialog: what a rewind to before the message's turn would change (files to
 * restore or remove, the conversation that leaves the model's view, conflicts, files that cannot
 * be restored), then the rewind itself with the "Rewind" button. The person chooses what to take
 * back — files and conversation, files only, or the conversation only — and the preview follows
 * the choice. `onClose` learns whether the conversation went back (the page then offers the
 * turn's prompt again).
 */
import type { JSX } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { failure, get, post, sessionPath } from './api.ts'
import type { RewindPreview } from './api-types.ts'
import { useStrings } from './i18n.ts'

type Halves = 'both' | 'code' | 'conversation'

const query: Readonly<Record<Halves, string>> = { both: '', code: '?conversation=0', conversation: '?code=0' }
const body: Readonly<Record<Halves, { readonly code: boolean; readonly conversation: boolean }>> = {
  both: { code: true, conversation: true },
  code: { code: true, conversation: false },
  conversation: { code: false, conversation: true },
}

/** How the dialog closed: undefined when nothing was rewound. */
export type RewindOutcome = { readonly conversation: boolean } | undefined

export function RewindDialog(props: { readonly sessionId: string; readonly turn: number; readonly onClose: (outcome: RewindOutcome) => void }): JSX.Element {
  const t = useStrings()
  const dialog = useRef<HTMLDialogElement>(null)
  const [preview, setPreview] = useState<RewindPreview | undefined>()
  const [problem, setProblem] = useState<string | undefined>()
  const rewound = useRef<RewindOutcome>(undefined)
  const [halves, setHalves] = useState<Halves>('both')
  useEffect(() => {
    if (dialog.current?.open === false) dialog.current.showModal()
    setPreview(undefined)
    setProblem(undefined)
    get<RewindPreview>(sessionPath(props.sessionId, `/rewind/${props.turn}${query[halves]}`))
      .then(setPreview)
      .catch((error: unknown) => setProblem(failure(error)))
  }, [props.sessionId, props.turn, halves])
  const rewind = (): void => {
    post<{ files: number }>(sessionPath(props.sessionId, '/rewind'), { turn: props.turn, ...body[halves] })
      .then(() => {
        rewound.current = { conversation: body[halves].conversation }
        dialog.current?.close()
      })
      .catch((error: unknown) => setProblem(failure(error)))
  }
  const blocked = preview === undefined || preview.conflicts.length > 0 || preview.problems.length > 0
  return (
    <dialog ref={dialog} class="rewind-dialog" aria-labelledby="rewind-title" onClose={() => props.onClose(rewound.current)}>
      <h2 id="rewind-title">{t.rewindTitle(props.turn)}</h2>
      <fieldset class="rewind-halves">
        <legend>{t.rewindWhat}</legend>
        {(['both', 'code', 'conversation'] as const).map((value) => (
          <label key={value}>
            <input type="radio" name="rewind-halves" value={value} checked={halves === value} onChange={() => setHalves(value)} /> {t.rewindHalves[value]}
          </label>
        ))}
      </fieldset>
      {preview === undefined && problem === undefined ? <p>{t.loading}</p> : null}
      {preview === undefined ? null : (
        <div class="rewind-preview">
          {preview.files.length === 0 ? <p>{t.rewindNoFiles}</p> : null}
          <ul aria-label={t.rewindTitle(props.turn)}>
            {preview.files.map((file) => (
              <li key={file.path}>
                {file.action === 'remove' ? t.rewindRemove : t.rewindRestore} <code>{file.path}</code>
              </li>
            ))}
          </ul>
          {preview.conversation > 0 ? <p>{t.rewindConversation(preview.conversation)}</p> : null}
          {preview.conflicts.length === 0 ? null : (
            <div class="error">
              <p>{t.rewindConflicts}</p>
              {preview.conflicts.map((conflict) => (
                <pre key={conflict.path}>{[conflict.path, ...conflict.diff.map((line) => `  ${line}`)].join('\n')}</pre>
              ))}
            </div>
          )}
          {preview.unrestorable.length === 0 ? null : <p>{`${t.rewindUnrestorable} ${preview.unrestorable.join(', ')}`}</p>}
          {preview.problems.map((line) => (
            <p key={line} class="error">
              {line}
            </p>
          ))}
        </div>
      )}
      {problem === undefined ? null : (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      <div class="buttons">
        <button type="button" class="danger" disabled={blocked} onClick={rewind}>
          {t.rewindDo}
        </button>
        <button type="button" onClick={() => dialog.current?.close()}>
          {t.cancel}
        </button>
      </div>
    </dialog>
  )
}
