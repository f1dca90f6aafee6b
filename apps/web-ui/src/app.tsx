/**
 * The page: header (title, cwd, "Folders", language), the sessions list, the chat of the current
 * session and the side panel. It starts on the session the server opened at start-up.
 */
import type { JSX } from 'preact'
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { useAttention } from './attention.ts'
import { notificationsSupported, useNotifySwitch, useQuestionNotifications } from './desktop-notify.ts'
import { failure, get, post } from './api.ts'
import type { ServerState, SessionRow } from './api-types.ts'
import { ChatView } from './chat-view.tsx'
import { draftsOf, type DraftStore } from './doc-drafts.ts'
import { openEventHub, type EventHub } from './event-hub.ts'
import { FoldersDialog } from './folders-dialog.tsx'
import { browserLanguage, strings, StringsContext, type Language } from './i18n.ts'
import { SessionList } from './session-list.tsx'
import { SidePanel } from './side-panel.tsx'

export function App(): JSX.Element {
  const [language, setLanguage] = useState<Language>(browserLanguage)
  const [state, setState] = useState<ServerState | undefined>()
  const [current, setCurrent] = useState<string | undefined>()
  const [rows, setRows] = useState<readonly SessionRow[]>([])
  const [folders, setFolders] = useState(false)
  const [problem, setProblem] = useState<string | undefined>()
  /** Unsaved document edits of every session opened on this page (survive switching sessions). */
  const drafts = useRef<DraftStore>(new Map())
  const t = strings[language]
  const [hub] = useState<EventHub>(openEventHub)
  useEffect(() => () => hub.close(), [hub])

  const refresh = useCallback((): void => {
    get<{ sessions: SessionRow[] }>('/sessions')
      .then((value) => setRows(value.sessions))
      .catch((error: unknown) => setProblem(failure(error)))
  }, [])
  useEffect(() => {
    get<ServerState>('/state')
      .then((value) => {
        setState(value)
        setCurrent(value.firstSession)
      })
      .catch((error: unknown) => setProblem(failure(error)))
    refresh()
  }, [refresh])
  useEffect(() => {
    // The sessions list follows every session's turns and questions (and sessions other tabs open); one read per burst.
    let timer: ReturnType<typeof setTimeout> | undefined
    const later = (): void => {
      timer ??= setTimeout(() => {
        timer = undefined
        refresh()
      }, 100)
    }
    const unlisten = hub.listen((message) => {
      if (message.kind === 'sessions' || message.kind === 'hello') later()
      else if (message.kind === 'session' && (message.event.kind === 'busy' || message.event.kind === 'approval' || message.event.kind === 'approval-done')) later()
    })
    return () => {
      unlisten()
      clearTimeout(timer)
    }
  }, [hub, refresh])
  useAttention(rows.filter((row) => row.waiting).length, t)
  const [notify, setNotify] = useNotifySwitch()
  useQuestionNotifications(hub, notify, t)
  useEffect(() => {
    document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en'
    localStorage.setItem('dsh-web-language', language)
  }, [language])

  const open = (id: string | undefined): void => {
    post<{ id: string }>('/sessions', id === undefined ? {} : { resume: id })
      .then((value) => {
        setCurrent(value.id)
        refresh()
      })
      .catch((error: unknown) => setProblem(failure(error)))
  }

  return (
    <StringsContext.Provider value={t}>
      <header class="top">
        <h1>{t.appTitle}</h1>
        <code class="cwd">{state?.cwd ?? ''}</code>
        <span class="spacer" />
        <button type="button" onClick={() => setFolders(true)} disabled={current === undefined}>
          {t.folders}
        </button>
        {notificationsSupported() ? (
          <label class="notify">
            <input
              type="checkbox"
              checked={notify}
              onChange={(event) => {
                void setNotify(event.currentTarget.checked).then((done) => (done ? undefined : setProblem(t.notifyRefused)))
              }}
            />{' '}
            {t.notifySwitch}
          </label>
        ) : null}
        <label class="language">
          {t.language}{' '}
          <select value={language} onChange={(event) => setLanguage(event.currentTarget.value === 'zh' ? 'zh' : 'en')}>
            <option value="en">English</option>
            <option value="zh">中文</option>
          </select>
        </label>
      </header>
      {problem === undefined ? null : (
        <p class="error banner" role="alert">
          {problem}{' '}
          <button type="button" class="dismiss" onClick={() => setProblem(undefined)}>
            {t.dismiss}
          </button>
        </p>
      )}
      <main class="layout">
        <SessionList rows={rows} current={current ?? ''} open={open} />
        {current === undefined ? <p class="loading">{t.loading}</p> : <ChatView key={current} sessionId={current} cwd={state?.cwd ?? ''} hub={hub} />}
        {current === undefined || state === undefined ? null : <SidePanel key={current} sessionId={current} docsOff={state.docsOff} drafts={draftsOf(drafts.current, current)} />}
      </main>
      {folders && current !== undefined ? <FoldersDialog sessionId={current} onClose={() => setFolders(false)} /> : null}
    </StringsContext.Provider>
  )
}
