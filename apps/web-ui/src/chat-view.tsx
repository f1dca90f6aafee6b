/**
 * The chat of one live session: its history, then what the event stream adds (streamed answer
 * text as markdown, tool rows, approval questions), the "Message" textbox (Enter sends,
 * Shift+Enter a new line) and the cancel button while a turn runs.
 */
import type { JSX } from 'preact'
import { useEffect, useReducer, useRef, useState } from 'preact/hooks'
import { failure, get, post, sessionPath } from './api.ts'
import type { HistoryItem, WebEvent } from './api-types.ts'
import { ApprovalCard, type Choice } from './approval-card.tsx'
import { chatReducer, emptyChat, type ChatItem } from './chat-state.ts'
import { commandMatches, type CommandItem } from './command-matches.ts'
import { useStrings } from './i18n.ts'
import { Markdown } from './markdown.tsx'
import { RewindDialog } from './rewind-dialog.tsx'
import { ToolRow } from './tool-row.tsx'

function Item(props: { readonly item: ChatItem; readonly onRewind: (turn: number) => void }): JSX.Element {
  const t = useStrings()
  const { item } = props
  switch (item.kind) {
    case 'user':
      return (
        <article class="turn user" aria-label={t.you}>
          <div class="who">{t.you}</div>
          <div class="text">{item.text}</div>
          {item.turn === undefined ? null : (
            <button type="button" class="rewind" onClick={() => props.onRewind(item.turn ?? 0)}>
              {t.rewindToHere}
            </button>
          )}
        </article>
      )
    case 'assistant':
      return (
        <article class="turn assistant" aria-label={t.assistant}>
          <Markdown text={item.text} />
        </article>
      )
    case 'tool':
      return <ToolRow name={item.name} arguments={item.arguments} result={item.result} isError={item.isError} output={item.output} />
    case 'error':
      return (
        <p class="error" role="alert">
          {item.text}
        </p>
      )
    case 'notice':
      return <p class="notice">{item.text}</p>
    default:
      return item satisfies never
  }
}

export function ChatView(props: { readonly sessionId: string; readonly cwd: string; readonly onActivity: () => void }): JSX.Element {
  const t = useStrings()
  const [state, dispatch] = useReducer(chatReducer, emptyChat)
  const [draft, setDraft] = useState('')
  const [commands, setCommands] = useState<readonly CommandItem[]>([])
  const [problem, setProblem] = useState<string | undefined>()
  const [connected, setConnected] = useState(false)
  /** True after the stream broke, until it is back. */
  const [lost, setLost] = useState(false)
  /** The turn whose "Rewind to here" dialog is open. */
  const [rewinding, setRewinding] = useState<number | undefined>()
  /** Bumped after a rewind: the stream is opened again and the history read anew. */
  const [generation, setGeneration] = useState(0)
  const bottom = useRef<HTMLDivElement>(null)
  const cancelledText = useRef(t.turnCancelled)
  cancelledText.current = t.turnCancelled
  const { onActivity } = props

  useEffect(() => {
    const path = sessionPath(props.sessionId)
    const source = new EventSource(`/api${path}/events`)
    // The history is read once the stream is subscribed (its first event, the busy state, says so), so
    // nothing falls between the two; again after a reconnect. Until then the textbox is read-only.
    let subscribed = false
    // A history read while a turn ran lacks what that turn streamed before the stream was
    // subscribed; the history is read again when each turn ends, so its answer shows whole and
    // its prompt gets its turn number ("Rewind to here").
    const readHistory = (): void => {
      get<{ items: HistoryItem[]; busy: boolean }>(`${path}/history`)
        .then((history) => {
          dispatch({ kind: 'history', items: history.items, busy: history.busy })
          setConnected(true)
          setLost(false)
        })
        .catch((error: unknown) => setProblem(failure(error)))
    }
    source.addEventListener('error', () => {
      // The stream broke (dsh web stopped or restarted): EventSource retries on its own; the page says so meanwhile.
      if (subscribed) setLost(true)
      subscribed = false
      setConnected(false)
    })
    source.addEventListener('message', (message: MessageEvent<string>) => {
      // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the server writes WebEvent JSON (packages/web/src/web-types.ts)
      const event = JSON.parse(message.data) as WebEvent
      if (!subscribed && event.kind === 'busy') {
        subscribed = true
        readHistory()
        return
      }
      dispatch({ kind: 'event', event, cancelledText: cancelledText.current })
      if (event.kind === 'busy' && !event.busy) {
        onActivity()
        readHistory()
      }
    })
    return () => source.close()
  }, [props.sessionId, onActivity, generation])

  useEffect(() => bottom.current?.scrollIntoView({ block: 'end' }), [state.items, state.approvals])

  useEffect(() => {
    // Completion only: a session whose commands cannot be listed completes nothing.
    get<{ commands: CommandItem[] }>(sessionPath(props.sessionId, '/commands'))
      .then((answer) => setCommands(answer.commands))
      .catch(() => setCommands([]))
  }, [props.sessionId])
  const matches = commandMatches(draft, commands)

  const send = (): void => {
    const text = draft.trim()
    if (text === '' || state.busy || !connected) return
    setProblem(undefined)
    post(sessionPath(props.sessionId, '/prompt'), { text })
      .then(() => setDraft(''))
      .catch((error: unknown) => setProblem(failure(error)))
  }
  const answer = (id: string, choice: Choice): void => {
    post(sessionPath(props.sessionId, `/approvals/${encodeURIComponent(id)}`), { choice }).catch((error: unknown) => setProblem(failure(error)))
  }
  const cancel = (): void => {
    post(sessionPath(props.sessionId, '/cancel')).catch((error: unknown) => setProblem(failure(error)))
  }
  const onKeyDown = (event: KeyboardEvent): void => {
    const [first] = matches
    if (event.key === 'Tab' && first !== undefined) {
      event.preventDefault()
      setDraft(`/${first.name} `)
      return
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault()
      send()
    }
  }

  return (
    <section class="chat" aria-label={t.sessions}>
      <div class="transcript" role="log" aria-live="polite">
        {state.items.length === 0 && state.approvals.length === 0 ? <p class="empty">{t.emptyChat(props.cwd)}</p> : null}
        {state.items.map((item, index) => (
          <Item key={index} item={item} onRewind={setRewinding} />
        ))}
        {state.approvals.map((approval) => (
          <ApprovalCard key={approval.id} approval={approval} answer={(choice) => answer(approval.id, choice)} />
        ))}
        <div ref={bottom} />
      </div>
      {rewinding === undefined ? null : (
        <RewindDialog
          sessionId={props.sessionId}
          turn={rewinding}
          onClose={(rewound) => {
            setRewinding(undefined)
            if (rewound) setGeneration((value) => value + 1)
          }}
        />
      )}
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
      <form
        class="composer"
        onSubmit={(event) => {
          event.preventDefault()
          send()
        }}
      >
        <label class="visually-hidden" for="message">
          {t.message}
        </label>
        <textarea id="message" rows={3} value={draft} readOnly={!connected} placeholder={t.messageHint} onInput={(event) => setDraft(event.currentTarget.value)} onKeyDown={onKeyDown} />
        {matches.length === 0 ? null : (
          <ul class="command-list" role="listbox" aria-label={t.commands}>
            {matches.map((command) => (
              <li key={command.name} role="option" aria-selected={command === matches[0]} onClick={() => setDraft(`/${command.name} `)}>
                <code>/{command.name}</code> {command.hint === undefined ? '' : `${command.hint} `}— {command.description}
              </li>
            ))}
          </ul>
        )}
        <div class="composer-buttons">
          <button type="submit" class="primary" disabled={state.busy || !connected || draft.trim() === ''}>
            {t.send}
          </button>
          <button type="button" onClick={cancel} disabled={!state.busy}>
            {t.cancel}
          </button>
        </div>
      </form>
    </section>
  )
}
