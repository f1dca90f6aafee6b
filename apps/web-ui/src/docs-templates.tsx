/** The templates view: save the session's conventions.md as a named template, list them, apply one. */
import type { JSX } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { failure, get, post, sessionPath } from './api.ts'
import { useStrings } from './i18n.ts'

export function TemplatesPane(props: { readonly sessionId: string }): JSX.Element {
  const t = useStrings()
  const base = sessionPath(props.sessionId, '/docs/templates')
  const [names, setNames] = useState<readonly string[] | undefined>()
  const [name, setName] = useState('')
  const [status, setStatus] = useState<{ readonly ok: boolean; readonly text: string } | undefined>()
  const fail = (error: unknown): void => setStatus({ ok: false, text: failure(error) })
  const load = (): void => {
    get<{ templates: string[] }>(base)
      .then((value) => setNames(value.templates))
      .catch(fail)
  }
  useEffect(load, [base])
  return (
    <div class="templates">
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault()
          post<{ path: string }>(base, { name: name.trim() })
            .then((result) => {
              setStatus({ ok: true, text: t.saved(result.path) })
              setName('')
              load()
            })
            .catch(fail)
        }}
      >
        <label for="template-name">{t.templateName}</label>
        <input id="template-name" value={name} onInput={(event) => setName(event.currentTarget.value)} />
        <button type="submit" class="primary" disabled={name.trim() === ''}>
          {t.saveAsTemplate}
        </button>
      </form>
      <h3>{t.templates}</h3>
      {names === undefined ? <p>{t.loading}</p> : names.length === 0 ? <p>{t.noTemplates}</p> : null}
      <ul class="template-list">
        {names?.map((item) => (
          <li key={item}>
            <code>{item}</code>{' '}
            <button
              type="button"
              aria-label={`${t.apply}: ${item}`}
              onClick={() => {
                post<{ path: string }>(`${base}/apply`, { name: item })
                  .then((result) => setStatus({ ok: true, text: t.applied(item, result.path) }))
                  .catch(fail)
              }}
            >
              {t.apply}
            </button>
          </li>
        ))}
      </ul>
      {status === undefined ? null : (
        <p class={status.ok ? 'status' : 'error'} role="status">
          {status.text}
        </p>
      )}
    </div>
  )
}
