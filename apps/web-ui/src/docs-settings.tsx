/**
 * The settings view of the maintainer-documents panel: the runtime switches (process-level), the
 * ten live settings with "overridden" marks and "Restore default", the documents folder's path,
 * and the orphan sweep (preview first, then remove what the preview listed).
 */
import type { JSX } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { failure, get, post, sessionPath } from './api.ts'
import type { DocsSettings, SweepPreview } from './api-types.ts'
import { useStrings } from './i18n.ts'

export function SettingsPane(props: { readonly sessionId: string }): JSX.Element {
  const t = useStrings()
  const base = sessionPath(props.sessionId, '/docs')
  const [view, setView] = useState<DocsSettings | undefined>()
  const [problem, setProblem] = useState<string | undefined>()
  const [sweep, setSweep] = useState<SweepPreview | undefined>()
  // What the person is typing in a number field, until it is sent: a re-render of the page (the
  // session list refreshed after a turn, a banner) must not put the stored value back under their
  // cursor, which also made Enter change and send nothing.
  const [drafts, setDrafts] = useState<Readonly<Record<string, string>>>({})
  const forget = (name: string): void => setDrafts((all) => Object.fromEntries(Object.entries(all).filter(([key]) => key !== name)))
  const fail = (error: unknown): void => setProblem(failure(error))
  const load = (): void => {
    get<DocsSettings>(`${base}/settings`).then(setView).catch(fail)
  }
  useEffect(load, [base])
  const changed = (): void => {
    setProblem(undefined)
    load()
  }
  /** Sends a change, then lists again; a refused change shows why, and the controls show the values in force again. */
  const send = (route: string, body: unknown): void => {
    post(`${base}${route}`, body)
      .then(changed)
      .catch((error: unknown) => {
        fail(error)
        load()
      })
  }
  /** A number field's change: an empty or non-numeric entry is not sent (it would have been 0, which may mean "off"). */
  const sendNumber = (field: { readonly name: string; readonly description: string }, text: string): void => {
    forget(field.name)
    const value = Number(text.trim())
    if (text.trim() === '' || !Number.isInteger(value)) {
      setProblem(t.wholeNumber(field.description))
      load()
      return
    }
    send('/settings', { [field.name]: value })
  }
  if (view === undefined) return <p>{problem ?? t.loading}</p>
  const settings = view.settings
  return (
    <div class="settings">
      <fieldset>
        <legend>{t.switches}</legend>
        {view.switchFields.map((field) => (
          <label key={field.name} class="switch">
            <input type="checkbox" checked={view.switches[field.name] === true} onChange={(event) => send('/switches', { [field.name]: event.currentTarget.checked })} /> {field.description}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>{t.liveSettings}</legend>
        {settings === null ? <p>{t.noSettings}</p> : null}
        {settings === null
          ? null
          : view.settingFields.map((field) => {
              const value = settings.value[field.name]
              const overridden = settings.overridden.includes(field.name)
              const id = `setting-${field.name}`
              return (
                <div key={field.name} class="setting">
                  {typeof value === 'boolean' ? (
                    <input id={id} type="checkbox" checked={value} onChange={(event) => send('/settings', { [field.name]: event.currentTarget.checked })} />
                  ) : (
                    <input
                      id={id}
                      type="number"
                      value={drafts[field.name] ?? value}
                      onInput={(event) => {
                        const text = event.currentTarget.value
                        setDrafts((all) => ({ ...all, [field.name]: text }))
                      }}
                      onChange={(event) => sendNumber(field, event.currentTarget.value)}
                    />
                  )}
                  <label for={id}>{field.description}</label>
                  {overridden ? <span class="badge overridden">{t.overridden}</span> : null}
                  {overridden ? (
                    <button type="button" aria-label={`${t.restoreDefault}: ${field.description}`} onClick={() => send('/settings/restore', { field: field.name })}>
                      {t.restoreDefault}
                    </button>
                  ) : null}
                </div>
              )
            })}
      </fieldset>
      <fieldset>
        <legend>{t.openFolder}</legend>
        <p>{t.sessionFolder}</p>
        <code class="path">{view.folder}</code>
        <p>{t.workspaceFolder}</p>
        <code class="path">{view.workspaceFolder}</code>
      </fieldset>
      <fieldset>
        <legend>{t.sweep}</legend>
        <button
          type="button"
          onClick={() => {
            get<SweepPreview>(`${base}/sweep`).then(setSweep).catch(fail)
          }}
        >
          {t.preview}
        </button>
        {sweep === undefined ? null : sweep.orphans.length === 0 ? (
          <p>{t.noOrphans}</p>
        ) : (
          <>
            <ul>
              {sweep.orphans.map((name) => (
                <li key={name}>
                  <code>{name}</code>
                </li>
              ))}
            </ul>
            <button type="button" class="danger" onClick={() => {
                post(`${base}/sweep`, { names: sweep.orphans })
                  .then(() => setSweep(undefined))
                  .catch(fail)
              }}>
              {t.removeOrphans(sweep.orphans.length)}
            </button>
          </>
        )}
        {sweep === undefined || sweep.kept.length === 0 ? null : (
          <p class="kept">
            {t.kept}: {sweep.kept.map((item) => `${item.name} (${item.reason})`).join(', ')}
          </p>
        )}
      </fieldset>
      {problem === undefined ? null : (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
    </div>
  )
}
