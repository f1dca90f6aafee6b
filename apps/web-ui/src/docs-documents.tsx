/**
 * The documents view of the maintainer-documents panel: a tab per document (named after its file),
 * an editor labelled with the file name, Reload, Save (atomic on the server; the next model request
 * carries the new text) and the strict-mode switch. Each document says which copy a save writes —
 * this session's or the workspace's, shared by every session of the cwd — and lets the person
 * choose (as `dsh docs edit --level`); the path shown is the path written. The first choice is
 * where the server's `auto` would write (the level the document was found at, else the workspace). Unsaved text is kept as a draft (doc-drafts.ts)
 * across tab and view switches; a save names the version it started from, so a document the model
 * or someone else changed meanwhile is refused (the draft stays) instead of overwritten.
 */
import type { JSX } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { failure, get, post, put, sessionPath } from './api.ts'
import type { DocumentEntry, DocumentsView } from './api-types.ts'
import type { DocDrafts } from './doc-drafts.ts'
import { useStrings } from './i18n.ts'
import { onTabKeys } from './tab-keys.ts'

type SaveLevel = 'session' | 'workspace'

/** The level `auto` would write: the one whose path it names. */
const autoLevel = (doc: DocumentEntry): SaveLevel => (doc.saveTo === doc.saveTargets.session ? 'session' : 'workspace')

export function DocumentsPane(props: { readonly sessionId: string; readonly drafts: DocDrafts }): JSX.Element {
  const t = useStrings()
  const base = sessionPath(props.sessionId, '/docs')
  const [view, setView] = useState<DocumentsView | undefined>()
  const [current, setCurrent] = useState<string | undefined>()
  /** The editor's text; undefined while the document loads (the editor is not shown, so nothing typed is lost). */
  const [text, setText] = useState<string | undefined>()
  /** Version of the text the editor started from (what the server said when it was read or saved). */
  const [version, setVersion] = useState<string | undefined>()
  const { drafts } = props
  const opening = useRef(0)
  const [status, setStatus] = useState<{ readonly ok: boolean; readonly text: string } | undefined>()
  const [strict, setStrict] = useState<boolean | undefined>()
  /** The level chosen per document name (absent: where `auto` would write). */
  const [levels, setLevels] = useState<ReadonlyMap<string, SaveLevel>>(new Map())
  const entry = view?.documents.find((doc) => doc.name === current)
  const level = entry === undefined ? undefined : (levels.get(entry.name) ?? autoLevel(entry))
  const chooseLevel = (value: SaveLevel): void => {
    if (current !== undefined) setLevels((known) => new Map(known).set(current, value))
  }

  const open = (name: string): void => {
    const ticket = ++opening.current
    setCurrent(name)
    setStatus(undefined)
    const draft = drafts.get(name)
    if (draft !== undefined) {
      setText(draft.text)
      setVersion(draft.base)
      return
    }
    setText(undefined)
    get<{ content: string; version: string }>(`${base}/read?name=${encodeURIComponent(name)}`)
      // Only the last document asked for fills the editor.
      .then((doc) => {
        if (ticket !== opening.current) return
        setText(doc.content)
        setVersion(doc.version)
      })
      .catch((error: unknown) => setStatus({ ok: false, text: failure(error) }))
  }
  const edit = (value: string): void => {
    setText(value)
    if (current !== undefined && version !== undefined) drafts.set(current, { text: value, base: version })
  }
  const reload = (): void => {
    if (current === undefined) return
    drafts.delete(current)
    open(current)
  }
  useEffect(() => {
    get<DocumentsView>(base)
      .then((value) => {
        setView(value)
        const first = value.documents[0]?.name
        if (first !== undefined) open(first)
      })
      .catch((error: unknown) => setStatus({ ok: false, text: failure(error) }))
    get<{ switches: Record<string, boolean> }>(`${base}/settings`)
      .then((value) => setStrict(value.switches['strictOnTopic'] === true))
      .catch((error: unknown) => setStatus({ ok: false, text: failure(error) }))
  }, [base])

  const save = (): void => {
    if (current === undefined || text === undefined) return
    const name = current
    const saved = text
    const ticket = opening.current
    put<{ path: string; version: string }>(`${base}/read`, { name, content: saved, ...(version === undefined ? {} : { expected: version }), ...(level === undefined ? {} : { level }) })
      .then((result) => {
        // What was typed while the save ran stays a draft, now based on the saved version.
        const later = drafts.get(name)
        if (later === undefined || later.text === saved) drafts.delete(name)
        else drafts.set(name, { text: later.text, base: result.version })
        // Another document opened meanwhile has its own version.
        if (ticket === opening.current) setVersion(result.version)
        setStatus({ ok: true, text: t.saved(result.path) })
      })
      .catch((error: unknown) => setStatus({ ok: false, text: failure(error) }))
  }
  const toggleStrict = (value: boolean): void => {
    post<Record<string, boolean>>(`${base}/switches`, { strictOnTopic: value })
      .then((switches) => setStrict(switches['strictOnTopic'] === true))
      .catch((error: unknown) => setStatus({ ok: false, text: failure(error) }))
  }
  return (
    <div class="documents">
      <div role="tablist" aria-label={t.viewDocuments} class="doc-tabs" onKeyDown={onTabKeys}>
        {view?.documents.map((doc) => (
          <button key={doc.name} type="button" role="tab" id={`doc-tab-${doc.name}`} aria-selected={doc.name === current} aria-controls="doc-editor" tabIndex={doc.name === current ? 0 : -1} onClick={() => open(doc.name)}>
            {doc.name}
            {drafts.has(doc.name) ? (
              <span class="unsaved" aria-hidden="true" title={t.unsaved}>
                {' •'}
              </span>
            ) : null}
          </button>
        ))}
      </div>
      {current === undefined || text === undefined ? (
        <p>{t.loading}</p>
      ) : (
        <div role="tabpanel" id="doc-editor" aria-labelledby={`doc-tab-${current}`}>
          <textarea class="doc-text" aria-label={current} value={text} spellcheck={false} onInput={(event) => edit(event.currentTarget.value)} />
        </div>
      )}
      {entry === undefined || level === undefined ? null : (
        <fieldset class="save-level">
          <legend>{t.saveLevel}</legend>
          <label>
            <input type="radio" name="save-level" value="session" checked={level === 'session'} onChange={() => chooseLevel('session')} /> {t.levelSession}
          </label>
          <label>
            <input type="radio" name="save-level" value="workspace" checked={level === 'workspace'} onChange={() => chooseLevel('workspace')} /> {t.levelWorkspace}
          </label>
          <code class="path save-path">{t.savesTo(entry.saveTargets[level])}</code>
        </fieldset>
      )}
      <div class="buttons">
        <button type="button" onClick={reload}>
          {t.reload}
        </button>
        <button type="button" class="primary" onClick={save} disabled={text === undefined}>
          {t.save}
        </button>
        <label class="switch">
          <input type="checkbox" checked={strict === true} disabled={strict === undefined} onChange={(event) => toggleStrict(event.currentTarget.checked)} /> {t.strictMode}
        </label>
      </div>
      {status === undefined ? null : (
        <p class={status.ok ? 'status' : 'error'} role="status">
          {status.text}
        </p>
      )}
    </div>
  )
}
