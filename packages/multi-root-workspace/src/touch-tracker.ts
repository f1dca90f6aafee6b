/**
 * Touches from the session event stream (seeds/002): a `tool/call` of `read`, `write` or `edit`
 * paired with its `tool/result` by call id; only a successful result makes its `file_path` (as
 * the model wrote it, resolved against the session's working directory) a pending touch. Calls of
 * other tools, failed calls, and calls while the session has no additional roots are ignored.
 *
 * Bounded per session: at most `maxPendingCalls` unanswered calls and `maxPendingTouches`
 * touches; beyond that new ones are dropped and `onLimit` is told (the caller warns once).
 */
import { isAbsolute, resolve } from 'node:path'
import type { SessionEvent } from '@dsh/contracts'

/** Tools whose successful calls count as touches. */
export const TOUCH_TOOLS: ReadonlySet<string> = new Set(['read', 'write', 'edit'])

/** Limits of one tracker. */
export interface TouchLimits {
  readonly maxPendingCalls: number
  readonly maxPendingTouches: number
}

const record = (value: unknown): object | undefined => (typeof value === 'object' && value !== null ? value : undefined)

function filePathOf(argumentsText: unknown): string | undefined {
  if (typeof argumentsText !== 'string') return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(argumentsText)
  } catch {
    // Arguments that are not JSON fail in the pipeline too; such a call touches nothing.
    return undefined
  }
  const object = record(parsed)
  const path: unknown = object === undefined ? undefined : Reflect.get(object, 'file_path')
  return typeof path === 'string' && path.trim() !== '' ? path : undefined
}

/** Pending calls and touches of one session. */
export class TouchTracker {
  readonly #calls = new Map<string, string>()
  #touches: string[] = []
  /** Whether the session had additional roots at its last pre-step (touches only count then). */
  active = false

  /** Records a `tool/call` or `tool/result` event of a session working in `cwd`. */
  observe(event: SessionEvent, cwd: string, limits: TouchLimits, onLimit: (which: 'calls' | 'touches') => void): void {
    const data = record(event.data)
    if (data === undefined) return
    if (event.type === 'tool/call') {
      if (!this.active) return
      const name: unknown = Reflect.get(data, 'name')
      const callId: unknown = Reflect.get(data, 'callId')
      const path = filePathOf(Reflect.get(data, 'arguments'))
      if (typeof name !== 'string' || !TOUCH_TOOLS.has(name) || typeof callId !== 'string' || path === undefined) return
      if (this.#calls.size >= limits.maxPendingCalls) return onLimit('calls')
      this.#calls.set(callId, isAbsolute(path) ? path : resolve(cwd, path))
      return
    }
    if (event.type !== 'tool/result') return
    const message = record(Reflect.get(data, 'message'))
    const callId: unknown = message === undefined ? undefined : Reflect.get(message, 'callId')
    if (typeof callId !== 'string') return
    const path = this.#calls.get(callId)
    if (path === undefined) return
    this.#calls.delete(callId)
    if (message === undefined || Reflect.get(message, 'isError') !== false || this.#touches.includes(path)) return
    if (this.#touches.length >= limits.maxPendingTouches) return onLimit('touches')
    this.#touches.push(path)
  }

  /** The pending touches now (a snapshot; later touches are kept apart). */
  snapshot(): readonly string[] {
    return [...this.#touches]
  }

  /** Drops `paths` (a snapshot taken earlier) and keeps touches that arrived since. */
  consume(paths: readonly string[]): void {
    const done = new Set(paths)
    this.#touches = this.#touches.filter((path) => !done.has(path))
  }

  /** Forgets everything (the session has no roots). */
  clear(): void {
    this.#calls.clear()
    this.#touches = []
  }
}
