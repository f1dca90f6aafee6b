/**
 * Narrow, assertion-free readers for untyped values: error codes and messages, the message inside
 * a `user/message` event payload and the call id of a `tool/result` event.
 */
import type { SessionEvent, UserMessage } from '@dsh/contracts'

/** `error.message` for errors, `String(error)` otherwise. */
export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** A string property of an object-like value. */
export function stringProperty(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null || !(key in value)) return undefined
  const property: unknown = Reflect.get(value, key)
  return typeof property === 'string' ? property : undefined
}

/** The message of a `user/message` event, if the payload carries one. */
export function userMessageOf(event: SessionEvent | undefined): UserMessage | undefined {
  if (event?.type !== 'user/message') return undefined
  const data: unknown = event.data
  if (typeof data !== 'object' || data === null || !('message' in data)) return undefined
  const message: unknown = data.message
  return isUserMessage(message) ? message : undefined
}

function isUserMessage(value: unknown): value is UserMessage {
  return typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'string' && 'content' in value && Array.isArray(value.content) && 'source' in value
}

/** The call id of a successful `tool/result` event's message (not an error result), if the payload carries one. */
export function toolResultCallId(event: SessionEvent | undefined): string | undefined {
  if (event?.type !== 'tool/result') return undefined
  const data: unknown = event.data
  if (typeof data !== 'object' || data === null || !('message' in data)) return undefined
  const message: unknown = data.message
  if (typeof message !== 'object' || message === null || Reflect.get(message, 'isError') === true) return undefined
  return stringProperty(message, 'callId')
}
