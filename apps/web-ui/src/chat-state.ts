/**
 * The chat's state as a reducer: the shown items (history, then what the stream adds), the
 * questions waiting for an answer, and whether a turn runs. Text deltas extend the answer being
 * streamed; a tool call's end fills in its row.
 */
import type { ApprovalView, HistoryItem, WebEvent } from './api-types.ts'

export type ChatItem = HistoryItem | { readonly kind: 'error'; readonly text: string } | { readonly kind: 'notice'; readonly text: string }

export interface ChatState {
  readonly items: readonly ChatItem[]
  readonly approvals: readonly ApprovalView[]
  readonly busy: boolean
  /** True while the last assistant item still receives text. */
  readonly streaming: boolean
}

export type ChatAction = { readonly kind: 'history'; readonly items: readonly HistoryItem[]; readonly busy: boolean } | { readonly kind: 'event'; readonly event: WebEvent; readonly cancelledText: string }

export const emptyChat: ChatState = { items: [], approvals: [], busy: false, streaming: false }

/** Characters of a running call's output the page keeps (the start of a long output is dropped). */
export const keptOutputChars = 8_192

function outputTail(text: string): string {
  return text.length <= keptOutputChars ? text : text.slice(text.length - keptOutputChars)
}

function withEvent(state: ChatState, event: WebEvent, cancelledText: string): ChatState {
  switch (event.kind) {
    case 'prompt':
      return { ...state, items: [...state.items, { kind: 'user', text: event.text }], streaming: false }
    case 'busy':
      return { ...state, busy: event.busy, streaming: event.busy && state.streaming }
    case 'approval':
      return state.approvals.some((item) => item.id === event.approval.id) ? state : { ...state, approvals: [...state.approvals, event.approval] }
    case 'approval-done':
      return { ...state, approvals: state.approvals.filter((item) => item.id !== event.id) }
    case 'error':
      return { ...state, items: [...state.items, { kind: 'error', text: event.message }], streaming: false }
    case 'progress': {
      const progress = event.event
      switch (progress.type) {
        case 'text': {
          const last = state.items.at(-1)
          if (state.streaming && last?.kind === 'assistant') return { ...state, items: [...state.items.slice(0, -1), { kind: 'assistant', text: last.text + progress.text }] }
          return { ...state, items: [...state.items, { kind: 'assistant', text: progress.text }], streaming: true }
        }
        case 'tool-start':
          return { ...state, items: [...state.items, { kind: 'tool', callId: progress.callId, name: progress.name, arguments: progress.arguments }], streaming: false }
        case 'tool-end':
          return { ...state, items: state.items.map((item) => (item.kind === 'tool' && item.callId === progress.callId ? { ...item, result: progress.outcome.content, isError: progress.outcome.isError } : item)) }
        case 'turn-end':
          return { ...state, streaming: false, items: progress.reason === 'cancelled' ? [...state.items, { kind: 'notice', text: cancelledText }] : state.items }
        case 'step-start':
          return { ...state, streaming: false }
        case 'tool-output':
          return { ...state, items: state.items.map((item) => (item.kind === 'tool' && item.callId === progress.callId && item.result === undefined ? { ...item, output: outputTail((item.output ?? '') + progress.text) } : item)) }
        case 'reasoning':
          return state
        case 'retry': {
          if (!progress.discarded) return state
          // The partial answer of the failed attempt leaves the page; the next attempt streams it anew.
          const last = state.items.at(-1)
          const kept = state.streaming && last?.kind === 'assistant' ? state.items.slice(0, -1) : state.items
          return { ...state, streaming: false, items: [...kept, { kind: 'notice', text: `the answer broke off (${progress.detail}); retrying, attempt ${progress.attempt} of ${progress.maxAttempts}` }] }
        }
        default:
          return progress satisfies never
      }
    }
    default:
      return event satisfies never
  }
}

/**
 * The page's own notes (a failed or cancelled turn) shown after the last prompt: the stored history
 * does not hold them, so a history read that replaces the items keeps them at its end.
 */
function latestNotes(items: readonly ChatItem[]): ChatItem[] {
  const lastPrompt = items.findLastIndex((item) => item.kind === 'user')
  return items.slice(lastPrompt + 1).filter((item) => item.kind === 'error' || item.kind === 'notice')
}

/** The reducer. A `history` action replaces the shown items with the stored ones (plus {@link latestNotes}). */
export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.kind) {
    case 'history':
      return { items: [...action.items, ...latestNotes(state.items)], approvals: state.approvals, busy: action.busy || state.busy, streaming: false }
    case 'event':
      return withEvent(state, action.event, action.cancelledText)
    default:
      return action satisfies never
  }
}
