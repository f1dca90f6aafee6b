/**
 * The chat of one live session: its history, then what the browser-wide stream adds for it
 * (streamed answer text as markdown, tool rows, approval questions), the composer and the error
 * lines, the usage line and the permission-mode menu. Stream events are queued and applied once per animation frame (or after 200 ms in a
 * hidden tab, where frames stop), so a fast stream costs one render per frame, not one per delta.
 * The history is read again after a rewind.
 */
import type { JSX } from 'preact'
import { useEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks'
import { failure, get, post, sessionPath } from './api.ts'
import type { HistoryAnswer, UsageView } from './api-types.ts'
import type { Choice } from './approval-card.tsx'
import { chatReducer, loadingChat, type NumberedEvent } from './chat-state.ts'
import type { CommandItem } from './command-matches.ts'
import { Composer } from './composer.tsx'
import { PinnedTodos } from './pinned-todos.tsx'
import type { MentionItem } from './mention-complete.ts'
import type { EventHub } from './event-hub.ts'
import { useStrings } from './i18n.ts'
import { ModeMenu } from './mode-menu.tsx'
import { RewindDialog } from './rewind-dialog.tsx'
import { Transcript } from './transcript.tsx'
import { UsageLine } from './usage-line.tsx'

/** Longest wait for a frame before queued events are applied anyway (hidden tabs get no frames). */
const frameFallbackMs = 200

export function ChatView(props: { readonly sessionId: string; readonly cwd: string; readonly hub: EventHub }): JSX.Element {
  const t = useStrings()
  const [state, dispatch] = useReducer(chatReducer, loadingChat)
  const [problem, setProblem] = useState<string | undefined>()
  const [connected, setConnected] = useState(false)
  /** True after the stream broke, until it is back. */
  const [lost, setLost] = useState(false)
  const [sent, setSent] = useState(0)
  const [usage, setUsage] = useState<UsageView | undefined>()
  const [commands, setCommands] = useState<readonly CommandItem[]>([])
  /** The turn whose "Rewind to here" dialog is open, and the prompt that started it. */
  const [rewinding, setRewinding] = useState<{ readonly turn: number; readonly prompt: string } | undefined>()
  /** A rewound turn's prompt for the composer (serial: each rewind offers it anew). */
  const [restored, setRestored] = useState<{ readonly text: string; readonly serial: number } | undefined>()
  /** Bumped after a rewind: the history is read anew. */
  const [generation, setGeneration] = useState(0)
  /** True after a rewind on this page, until the next message: its undo is offered. */
  const [undoable, setUndoable] = useState(false)
  const cancelledText = useRef(t.turnCancelled)
  cancelledText.current = t.turnCancelled
  const { hub, sessionId } = props

  useEffect(() => {
    const path = sessionPath(sessionId)
    // A history read while a turn ran lacks what that turn streamed before the read; the history is
    // read again when the turn ends, so its answer shows whole.
    let joinedMidTurn = false
    let queue: NumberedEvent[] = []
    let frame = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    const readHistory = (): void => {
      get<HistoryAnswer>(`${path}/history`)
        .then((history) => {
          joinedMidTurn = history.busy
          setUsage(history.usage)
          dispatch({ kind: 'history', history, cancelledText: cancelledText.current })
          setConnected(true)
          setLost(false)
        })
        .catch((error: unknown) => setProblem(failure(error)))
    }
    const flush = (): void => {
      cancelAnimationFrame(frame)
      clearTimeout(timer)
      timer = undefined
      const events = queue
      queue = []
      dispatch({ kind: 'events', events, cancelledText: cancelledText.current })
      if (!events.some(({ event }) => event.kind === 'busy' && !event.busy)) return
      if (joinedMidTurn) readHistory()
      else
        get<UsageView>(`${path}/usage`)
          .then(setUsage)
          .catch((error: unknown) => setProblem(failure(error)))
    }
    const unlisten = hub.listen((message) => {
      switch (message.kind) {
        case 'hello':
          // (Re)connected: what the page shows is read again; events wait for it.
          dispatch({ kind: 'reload' })
          readHistory()
          return
        case 'lost':
          setLost(true)
          setConnected(false)
          return
        case 'sessions':
        case 'closed':
          return
        case 'session':
          if (message.session !== sessionId) return
          queue.push({ seq: message.seq, event: message.event })
          if (timer === undefined) {
            frame = requestAnimationFrame(flush)
            timer = setTimeout(flush, frameFallbackMs)
          }
          return
        default:
          message satisfies never
      }
    })
    if (hub.open) readHistory()
    return () => {
      unlisten()
      cancelAnimationFrame(frame)
      clearTimeout(timer)
    }
  }, [sessionId, hub, generation])

  useEffect(() => {
    // Completion only: a session whose commands cannot be listed completes nothing.
    get<{ commands: CommandItem[] }>(sessionPath(sessionId, '/commands'))
      .then((listed) => setCommands(listed.commands))
      .catch(() => setCommands([]))
  }, [sessionId])

  // One function per session, so the Message box asks again only when the typed token changes.
  const mentions = useMemo(() => (prefix: string) => get<{ items: MentionItem[] }>(sessionPath(sessionId, `/mentions?prefix=${encodeURIComponent(prefix)}`)).then((found) => found.items), [sessionId])

  const send = (text: string): Promise<boolean> => {
    setProblem(undefined)
    setUndoable(false)
    setSent((count) => count + 1)
    return post(sessionPath(sessionId, '/prompt'), { text }).then(
      () => true,
      (error: unknown) => {
        setProblem(failure(error))
        return false
      },
    )
  }
  const answer = (id: string, choice: Choice, note?: string): void => {
    const body = note === undefined || note.trim() === '' ? { choice } : { choice, note }
    post(sessionPath(sessionId, `/approvals/${encodeURIComponent(id)}`), body).catch((error: unknown) => setProblem(failure(error)))
  }
  const cancel = (): void => {
    post(sessionPath(sessionId, '/cancel')).catch((error: unknown) => setProblem(failure(error)))
  }
  const undoRewind = (): void => {
    setProblem(undefined)
    post(sessionPath(sessionId, '/rewind/undo')).then(
      () => {
        setUndoable(false)
        setGeneration((value) => value + 1)
      },
      (error: unknown) => setProblem(failure(error)),
    )
  }
  const chooseMode = (mode: string): Promise<boolean> => {
    setProblem(undefined)
    return post(sessionPath(sessionId, '/mode'), { mode }).then(
      () => true,
      (error: unknown) => {
        setProblem(failure(error))
        return false
      },
    )
  }

  return (
    <section class="chat" aria-label={t.sessions}>
      <Transcript items={state.items} approvals={state.approvals} streaming={state.streaming} empty={t.emptyChat(props.cwd)} answer={answer} sent={sent} onRewind={(turn, prompt) => setRewinding({ turn, prompt })} />
      {rewinding === undefined ? null : (
        <RewindDialog
          sessionId={sessionId}
          turn={rewinding.turn}
          onClose={(rewound) => {
            setRewinding(undefined)
            if (rewound?.conversation === true) setRestored((last) => ({ text: rewinding.prompt, serial: (last?.serial ?? 0) + 1 }))
            if (rewound !== undefined) {
              setGeneration((value) => value + 1)
              setUndoable(true)
            }
          }}
        />
      )}
      {undoable ? (
        <p class="rewind-note" role="status">
          {t.rewound}{' '}
          <button type="button" onClick={undoRewind}>
            {t.rewindUndo}
          </button>
        </p>
      ) : null}
      {problem === undefined ? null : (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      {lost ? (
        <p class="error" role="alert">
          {t.connectionLost}
        </p>
      ) : null}
      <PinnedTodos items={state.items} todos={state.todos} busy={state.busy} />
      {usage === undefined ? null : <UsageLine usage={usage} />}
      {state.mode === undefined ? null : <ModeMenu mode={state.mode} choose={chooseMode} />}
      <Composer busy={state.busy} connected={connected && !lost} send={send} cancel={cancel} commands={commands} restored={restored} mentions={mentions} />
    </section>
  )
}
