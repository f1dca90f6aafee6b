/**
 * The transcript: each item a memoised element keyed by its id (only the item that changed is
 * rendered again), the waiting questions after them. It follows the bottom while the reader is at
 * the bottom (follow-bottom.ts); a reader who scrolled up stays put and gets "Jump to latest".
 * Long histories are windowed: the last {@link windowSize} items are rendered, and scrolling to the
 * top renders the window before them (the browser keeps the reader's place); items and answer
 * blocks off screen skip layout and paint (`content-visibility: auto`).
 */
import type { JSX } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import type { ApprovalView } from './api-types.ts'
import { ApprovalCard, type Choice } from './approval-card.tsx'
import { AttachedNote } from './attached-note.tsx'
import { CompactedNote } from './compacted-note.tsx'
import type { ChatItem } from './chat-state.ts'
import { CopyButton } from './copy-button.tsx'
import { useFollowBottom } from './follow-bottom.ts'
import { useStrings } from './i18n.ts'
import { Markdown } from './markdown.tsx'
import { memo } from './memo.ts'
import { Reasoning } from './reasoning.tsx'
import { ToolRow } from './tool-row.tsx'

/** Items rendered at first (the last ones), and added each time the reader reaches the top. */
export const windowSize = 60

function ItemView(props: { readonly item: ChatItem; readonly streaming: boolean; readonly waiting: boolean; readonly onRewind: (turn: number, prompt: string) => void }): JSX.Element {
  const t = useStrings()
  const { item } = props
  switch (item.kind) {
    case 'user':
      return (
        <article class="turn user" aria-label={t.you}>
          <div class="who">{t.you}</div>
          <div class="text">{item.text}</div>
          {item.turn === undefined ? null : (
            <button type="button" class="rewind" onClick={() => props.onRewind(item.turn ?? 0, item.text)}>
              {t.rewindToHere}
            </button>
          )}
        </article>
      )
    case 'assistant':
      return (
        <article class="turn assistant" aria-label={t.assistant}>
          <Markdown text={item.text} streaming={props.streaming} />
          {props.streaming ? null : (
            <div class="turn-actions">
              <CopyButton text={() => item.text} label={t.copyMessage} />
            </div>
          )}
        </article>
      )
    case 'reasoning':
      return <Reasoning text={item.text} streaming={props.streaming} />
    case 'tool':
      return <ToolRow name={item.name} arguments={item.arguments} result={item.result} isError={item.isError} waiting={props.waiting} output={item.output} />
    case 'error':
      return (
        <p class="error" role="alert">
          {item.text}
        </p>
      )
    case 'notice':
      return <p class="notice">{item.text}</p>
    case 'attached':
      return <AttachedNote files={item.files} />
    case 'compacted':
      return <CompactedNote summary={item.summary} />
    default:
      return item satisfies never
  }
}

const Item = memo(ItemView)

export interface TranscriptProps {
  readonly items: readonly ChatItem[]
  readonly approvals: readonly ApprovalView[]
  readonly streaming: boolean
  readonly empty: string
  readonly answer: (id: string, choice: Choice, note?: string) => void
  /** Changes when the person sent a prompt: the view goes back to following the bottom. */
  readonly sent: number
  /** Opens the "Rewind to here" dialog for a turn (a stable function: items are memoised). */
  /** The person asked to rewind to before `turn`, which `prompt` started. */
  readonly onRewind: (turn: number, prompt: string) => void
}

export function Transcript(props: TranscriptProps): JSX.Element {
  const t = useStrings()
  const { box, content, behind, jump, handlers } = useFollowBottom([props.items, props.approvals], props.sent)
  /**
   * Index of the first rendered item: fixed once the items first arrive (the last {@link windowSize}
   * of them), so items added at the end never shift the window; reaching the top lowers it.
   */
  const [first, setFirst] = useState<number | undefined>(undefined)
  const hidden = Math.min(first ?? Math.max(0, props.items.length - windowSize), props.items.length)
  const earlier = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (first === undefined && props.items.length > 0) setFirst(hidden)
  }, [first, hidden, props.items.length])
  useEffect(() => {
    const sentinel = earlier.current
    if (sentinel === null || typeof IntersectionObserver !== 'function') return undefined
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setFirst((index) => Math.max(0, (index ?? 0) - windowSize))
    }, { root: box.current, rootMargin: '400px 0px 0px 0px' })
    observer.observe(sentinel)
    return () => observer.disconnect()
  }, [hidden > 0])
  const waitingCalls = new Set(props.approvals.map((approval) => approval.callId))
  const last = props.items.length - 1
  const items = hidden === 0 ? props.items : props.items.slice(hidden)
  return (
    <div class="transcript-wrap">
      <div class="transcript" role="log" aria-live="polite" ref={box} {...handlers}>
        <div class="transcript-content" ref={content}>
          {props.items.length === 0 && props.approvals.length === 0 ? <p class="empty">{props.empty}</p> : null}
        {hidden > 0 ? (
          <div class="earlier" ref={earlier}>
            {t.earlierItems(hidden)}
          </div>
        ) : null}
        {items.map((item, index) => (
          <Item key={item.id} item={item} streaming={props.streaming && index + hidden === last} waiting={item.kind === 'tool' && item.result === undefined && waitingCalls.has(item.callId)} onRewind={props.onRewind} />
        ))}
        {props.approvals.map((approval) => (
          <ApprovalCard key={approval.id} approval={approval} answer={(choice, note) => props.answer(approval.id, choice, note)} />
        ))}
        </div>
      </div>
      {behind ? (
        <button type="button" class="jump" onClick={jump}>
          {t.jumpToLatest}
        </button>
      ) : null}
    </div>
  )
}
