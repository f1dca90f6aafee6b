/**
 * A session's visible history as the page shows it: what people typed, the model's reasoning (as
 * recorded with its answer, so a reloaded page still has it), the model's answers, and each tool
 * call with its result, which `@`-mentioned files went with a prompt, and where a compaction
 * summarised what came before (with the summary the model now has). Other plugin messages are left
 * out (the Context tab explains the instruction files).
 */
import type { Message } from '@dsh/contracts'
import { attachedFilesOf, type AttachedFile } from '@dsh/runtime'

/** One shown item. */
export type HistoryItem =
  | { readonly kind: 'user'; readonly text: string; /** The turn it started, when known (the page offers "Rewind to here"). */ readonly turn?: number }
  | { readonly kind: 'reasoning'; readonly text: string }
  | { readonly kind: 'assistant'; readonly text: string }
  | { readonly kind: 'tool'; readonly callId: string; readonly name: string; readonly arguments: string; readonly result?: string; readonly isError?: boolean }
  /** The files a prompt `@`-mentioned, as they went with it (`refused`: named instead, with why). */
  | { readonly kind: 'attached'; readonly files: readonly AttachedFile[] }
  /** A compaction checkpoint: the history before it was summarised into `summary`, which the model sees instead. */
  | { readonly kind: 'compacted'; readonly summary: string }

const textOf = (blocks: readonly { readonly type: string; readonly text?: string }[], type: 'text' | 'reasoning' = 'text'): string =>
  blocks
    .filter((block) => block.type === type)
    .map((block) => block.text ?? '')
    .join('')

/** The items of `messages`, in order; a tool result is attached to its call. */
export function historyItems(messages: readonly Message[], turnOf: (message: Message) => number | undefined = () => undefined): HistoryItem[] {
  const items: HistoryItem[] = []
  const calls = new Map<string, number>()
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        if (message.source.kind === 'user') {
          const turn = turnOf(message)
          items.push({ kind: 'user', text: textOf(message.content), ...(turn === undefined ? {} : { turn }) })
        } else if (message.source.kind === 'compaction') items.push({ kind: 'compacted', summary: textOf(message.content) })
        const attached = attachedFilesOf(message)
        if (attached !== undefined && attached.length > 0) items.push({ kind: 'attached', files: attached })
        break
      case 'assistant': {
        const reasoning = textOf(message.content, 'reasoning')
        if (reasoning !== '') items.push({ kind: 'reasoning', text: reasoning })
        const text = textOf(message.content)
        if (text !== '') items.push({ kind: 'assistant', text })
        for (const block of message.content) {
          if (block.type !== 'tool-call') continue
          calls.set(block.callId, items.length)
          items.push({ kind: 'tool', callId: block.callId, name: block.name, arguments: block.arguments })
        }
        break
      }
      case 'tool': {
        const index = calls.get(message.callId)
        const call = index === undefined ? undefined : items[index]
        if (index !== undefined && call?.kind === 'tool') items[index] = { ...call, result: textOf(message.content), isError: message.isError }
        break
      }
      default:
        message satisfies never
    }
  }
  return items
}
