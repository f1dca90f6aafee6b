/**
 * The folders dialog (multi-root): the session's additional roots with their states, add (a
 * "Path" textbox and the "Add…" button; the root goes to the cwd's registry, what `dsh roots list`
 * shows), remove, alias, and retry (list again, which re-checks every root on disk).
 */
import type { JSX } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { failure, get, post, sessionPath } from './api.ts'
import type { FolderRow, FoldersListing } from './api-types.ts'
import { useStrings } from './i18n.ts'

function Row(props: { readonly row: FolderRow; readonly change: (path: string, body: unknown) => void }): JSX.Element {
  const t = useStrings()
  const { row } = props
  const [alias, setAlias] = useState(row.alias ?? '')
  return (
    <li class={`folder ${row.state}`}>
      <div>
        <span class="folder-path">{row.path}</span> {row.alias === null ? null : <span class="folder-alias">({row.alias})</span>} <span class={`badge ${row.state}`}>{t.state(row.state)}</span>
        {row.detail === null ? null : <div class="folder-detail">{row.detail}</div>}
      </div>
      <div class="folder-actions">
        <input aria-label={`${t.alias}: ${row.path}`} value={alias} onInput={(event) => setAlias(event.currentTarget.value)} />
        <button type="button" onClick={() => props.change('/folders/alias', { ref: row.id, alias })}>
          {t.setAlias}
        </button>
        <button type="button" class="danger" onClick={() => props.change('/folders/remove', { ref: row.id })}>
          {t.remove}
        </button>
      </div>
    </li>
  )
}

export function FoldersDialog(props: { readonly sessionId: string; readonly onClose: () => void }): JSX.Element {
  const t = useStrings()
  const dialog = useRef<HTMLDialogElement>(null)
  const [listing, setListing] = useState<FoldersListing | undefined>()
  const [path, setPath] = useState('')
  const [problem, setProblem] = useState<string | undefined>()
  const load = (): void => {
    get<FoldersListing>(sessionPath(props.sessionId, '/folders'))
      .then((value) => {
        setListing(value)
        setProblem(undefined)
      })
      .catch((error: unknown) => setProblem(failure(error)))
  }
  const change = (route: string, body: unknown, then?: () => void): void => {
    post<FoldersListing>(sessionPath(props.sessionId, route), body)
      .then((value) => {
        setListing(value)
        setProblem(undefined)
        then?.()
      })
      .catch((error: unknown) => setProblem(failure(error)))
  }
  useEffect(() => {
    dialog.current?.showModal()
    load()
  }, [props.sessionId])
  return (
    <dialog ref={dialog} class="folders-dialog" aria-labelledby="folders-title" onClose={props.onClose}>
      <h2 id="folders-title">{t.foldersTitle}</h2>
      {listing === undefined ? <p>{t.loading}</p> : null}
      {listing === undefined ? null : (
        <p class="primary-root">
          {t.primary}: <code>{listing.primary}</code>
        </p>
      )}
      {listing === undefined || listing.problem === null ? null : <p class="error">{listing.problem}</p>}
      {listing?.warning === undefined || listing.warning === null ? null : (
        <p class="warning" role="status">
          {listing.warning}
        </p>
      )}
      {listing !== undefined && listing.roots.length === 0 ? <p>{t.noFolders}</p> : null}
      <ul class="folders">
        {listing?.roots.map((row) => (
          <Row key={`${row.id}:${row.alias ?? ''}`} row={row} change={change} />
        ))}
      </ul>
      <form
        class="add-folder"
        onSubmit={(event) => {
          event.preventDefault()
          if (path.trim() !== '') change('/folders', { path: path.trim() }, () => setPath(''))
        }}
      >
        <label for="folder-path">{t.path}</label>
        <input id="folder-path" value={path} placeholder="/absolute/path" onInput={(event) => setPath(event.currentTarget.value)} />
        <button type="submit" class="primary">
          {t.add}
        </button>
      </form>
      {problem === undefined ? null : (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      <div class="buttons">
        <button type="button" onClick={load}>
          {t.retry}
        </button>
        <button type="button" onClick={() => dialog.current?.close()}>
          {t.close}
        </button>
      </div>
    </dialog>
  )
}
