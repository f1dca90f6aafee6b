/**
 * Constructors for immutable messages with fresh ids.
 */
import { randomUUID } from 'node:crypto'
import type { MessageSource, UserMessage } from '@dsh/contracts'

/** Deep-freezes a JSON-like value in place and returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value
  Object.freeze(value)
  if (Array.isArray(value)) {
    for (const child of value) deepFreeze(child)
    return value
  }
  for (const key in value) deepFreeze(value[key])
  return value
}

/** Creates a frozen user-role message. */
export function createUserMessage(options: { readonly text: string; readonly source: MessageSource; readonly id?: string }): UserMessage {
  return deepFreeze({ id: options.id ?? randomUUID(), role: 'user', content: [{ type: 'text', text: options.text }], source: options.source })
}

/** The concatenated text of a message's text blocks. */
export function messageText(message: { readonly content: readonly { readonly type: string; readonly text?: string }[] }): string {
  return message.content.flatMap((block) => (block.type === 'text' && block.text !== undefined ? [block.text] : [])).join('')
}
