/**
 * The page: header (title, cwd, "Folders", "Close session", language), the sessions list, the chat
 * of the current session and the side panel. It starts on the session the server names (the one
 * opened at start-up while it is open). Closing a session (its row's ×, the header's button) asks
 * first when it runs a turn or waits for an answer; a tab showing a session closed elsewhere says
 * so. In a narrow window the sessions list and the side panel are drawers over the chat.
 */
import type { JSX } from 'preact'
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { useAttention } from './attention.ts'
import { useNotifySwitch, useQuestionNotifications } from './desktop-notify.ts'
import { ApiError, failure, get, post, sessionPath } from './api.ts'
import type { ServerState, SessionRow, SessionsAnswer } from './api-types.ts'
import { ChatView } from './chat-view.tsx'
import { CloseDialog } from './close-dialog.tsx'
import { draftsOf, type DraftStore } from './doc-drafts.ts'
import { openEventHub, type EventHub } from './event-hub.ts'
import { FoldersDialog } from './folders-dialog.tsx'
import { browserLanguage, strings, StringsContext, type Language } from './i18n.ts'
import { useNarrow } from './narrow.ts'
import { SessionGone } from './session-gone.tsx'
import { SessionList } from './session-list.tsx'
import { SidePanel } from './side-panel.tsx'
import { HeaderTools, TopBar, type Drawer } from './top-bar.tsx'

export function App(): JSX.Element {
  const [language, setLanguage] = useState<Language>(browserLanguage)
  const [state, setState] = useState<ServerState | undefined>()
  const [current, setCurrent] = useState<string | undefined>()
  const [lists, setLists] = useState<SessionsAnswer>({ sessions: [], closed: [] })
  /** Sessions this tab was told were closed (the current one among them shows as closed). */
  const [closedHere, setClosedHere] = useState<ReadonlySet<string>>(new Set())
  const [confirming, setConfirming] = useState<SessionRow | undefined>()
  const [folders, setFolders] = useState(false)
  /** A session is being opened: the previous one's view is gone, so nothing typed meanwhile goes to it. */
  const [opening, setOpening] = useState(false)
  const [problem, setProblem] = useState<string | undefined>()
  const narrow = useNarrow()
  const [drawer, setDrawer] = useState<Drawer | undefined>()
  /** Unsaved document edits of every session opened on this page (survive switching sessions). */
  const drafts = useRef<DraftStore>(new Map())
  const t = strings[language]
  const [hub] = useState<EventHub>(openEventHub)
  useEffect(() => () => hub.close(), [hub])

  const refresh = useCallback((): void => {
    get<SessionsAnswer>('/sessions')
      .then(setLists)
      .catch((error: unknown) => setProblem(failure(error)))
  }, [])
  useEffect(() => {
    get<ServerState>('/state')
      .then((value) => {
        setState(value)
        setCurrent(value.firstSession ?? undefined)
      })
      .catch((error: unknown) => setProblem(failure(error)))
    refresh()
  }, [refresh])
  useEffect(() => {
    // The sessions list follows every session's turns and questions (and sessions other tabs open or close); one read per burst.
    let timer: ReturnType<typeof setTimeout> | undefined
    const later = (): void => {
      timer ??= setTimeout(() => {
        timer = undefined
        refresh()
      }, 100)
    }
    const unlisten = hub.listen((message) => {
      if (message.kind === 'closed') setClosedHere((ids) => new Set(ids).add(message.session))
      if (message.kind === 'sessions' || message.kind === 'hello') later()
      else if (message.kind === 'session' && (message.event.kind === 'busy' || message.event.kind === 'approval' || message.event.kind === 'approval-done')) later()
    })
    return () => {
      unlisten()
      clearTimeout(timer)
    }
  }, [hub, refresh])
  const rows = lists.sessions
  useAttention(rows.filter((row) => row.waiting).length, t)
  const [notify, setNotify] = useNotifySwitch()
  useQuestionNotifications(hub, notify, t)
  useEffect(() => {
    document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en'
    localStorage.setItem('dsh-web-language', language)
  }, [language])
  useEffect(() => {
    // Esc hides a drawer (a dialog open over it takes its own Esc).
    if (drawer === undefined) return undefined
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape' && document.querySelector('dialog[open]') === null) setDrawer(undefined)
    }
    document.addEventListener('keydown', onKey)
    document.querySelector<HTMLElement>(`#${drawer === 'sessions' ? 'sessions' : 'panel'}-drawer .drawer-back`)?.focus()
    return () => document.removeEventListener('keydown', onKey)
  }, [drawer])

  const open = (id: string | undefined): void => {
    setDrawer(undefined)
    setOpening(true)
    post<{ id: string }>('/sessions', id === undefined ? {} : { resume: id })
      .then((value) => {
        setClosedHere((ids) => (ids.has(value.id) ? new Set([...ids].filter((other) => other !== value.id)) : ids))
        setCurrent(value.id)
        refresh()
      })
      .catch((error: unknown) => setProblem(failure(error)))
      .finally(() => setOpening(false))
  }
  const close = (row: SessionRow, stopTurn: boolean): void => {
    post(sessionPath(row.id, '/close'), stopTurn ? { stopTurn: true } : {})
      .then(refresh)
      .catch((error: unknown) => {
        // 409: it started a turn (or a question) since the list was read; ask as for a busy one.
        if (error instanceof ApiError && error.status === 409 && !stopTurn) setConfirming({ ...row, busy: true })
        else setProblem(failure(error))
      })
  }
  const askClose = (row: SessionRow): void => (row.busy || row.waiting ? setConfirming(row) : close(row, false))
  const shown = current !== undefined && !closedHere.has(current) ? current : undefined
  const currentRow = (): SessionRow => rows.find((row) => row.id === shown) ?? { id: shown ?? '', title: '', updatedAt: '', live: true, busy: false, waiting: false }
  const tools = <HeaderTools notify={notify} setNotify={(on) => void setNotify(on).then((done) => (done ? undefined : setProblem(t.notifyRefused)))} language={language} setLanguage={setLanguage} />
  const hide = narrow ? () => setDrawer(undefined) : undefined

  return (
    <StringsContext.Provider value={t}>
      <TopBar narrow={narrow} drawer={drawer} toggle={(which) => setDrawer((shownDrawer) => (shownDrawer === which ? undefined : which))} chat={shown !== undefined} folders={() => setFolders(true)} close={() => askClose(currentRow())} waiting={rows.filter((row) => row.waiting).length} cwd={state?.cwd ?? ''} tools={tools} />
      {problem === undefined ? null : (
        <p class="error banner" role="alert">
          {problem}{' '}
          <button type="button" class="dismiss" onClick={() => setProblem(undefined)}>
            {t.dismiss}
          </button>
        </p>
      )}
      <main class={`layout${narrow ? ' narrow' : ''}${narrow && drawer !== undefined ? ` drawer-${drawer}` : ''}`}>
        <SessionList rows={rows} closed={lists.closed} current={shown ?? ''} open={open} close={askClose} onHide={hide}>
          {narrow ? (
            <>
              <code class="cwd">{state?.cwd ?? ''}</code>
              {tools}
            </>
          ) : undefined}
        </SessionList>
        {state === undefined || opening ? <p class="loading">{t.loading}</p> : shown === undefined ? <SessionGone closed={current} open={open} /> : <ChatView key={shown} sessionId={shown} cwd={state.cwd} hub={hub} />}
        {shown === undefined || state === undefined || opening ? null : <SidePanel key={shown} sessionId={shown} docsOff={state.docsOff} drafts={draftsOf(drafts.current, shown)} hub={hub} onHide={hide} />}
        {narrow && drawer !== undefined ? <div class="drawer-backdrop" onClick={() => setDrawer(undefined)} /> : null}
      </main>
      {folders && shown !== undefined ? <FoldersDialog sessionId={shown} onClose={() => setFolders(false)} /> : null}
      {confirming === undefined ? null : (
        <CloseDialog
          row={confirming}
          onAnswer={(yes) => {
            setConfirming(undefined)
            if (yes) close(confirming, true)
          }}
        />
      )}
    </StringsContext.Provider>
  )
}
