/**
 * Scrolling of the transcript: it follows the bottom while the reader is at the bottom. Only a
 * scroll the reader made (wheel, keys, touch, the scroll bar) away from the bottom stops the
 * following; a scroll the page caused (content above laid out at its real size) never does, and
 * content that grows without a render is followed too. Reaching the bottom, jumping, or a new
 * `restart` value (a prompt was sent) follows again.
 */
import type { RefObject } from 'preact'
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'

/** How near the bottom (px) still counts as "at the bottom". */
const bottomSlack = 48
/** How long after a wheel turn, key press or touch a scroll counts as the reader's. */
const intentMs = 600

/** What the transcript wires up. */
export interface FollowBottom {
  /** The scrolling box. */
  readonly box: RefObject<HTMLDivElement | null>
  /** The box's content, watched for size changes. */
  readonly content: RefObject<HTMLDivElement | null>
  /** True while the reader is away from the bottom (show "Jump to latest"). */
  readonly behind: boolean
  /** Back to the bottom, following again. */
  readonly jump: () => void
  /** Handlers of the scrolling box. */
  readonly handlers: { readonly onScroll: () => void; readonly onWheel: () => void; readonly onKeyDown: () => void; readonly onTouchMove: () => void; readonly onPointerDown: () => void }
}

/** Follows the bottom after every change of `changes`; `restart` changing follows again. */
export function useFollowBottom(changes: readonly unknown[], restart: unknown): FollowBottom {
  const box = useRef<HTMLDivElement>(null)
  const content = useRef<HTMLDivElement>(null)
  const following = useRef(true)
  const intent = useRef(0)
  const [behind, setBehind] = useState(false)
  const pin = (): void => {
    const element = box.current
    if (element !== null && following.current) element.scrollTop = element.scrollHeight
  }
  const onIntent = (): void => {
    intent.current = performance.now()
  }
  const onScroll = (): void => {
    const element = box.current
    if (element === null) return
    if (element.scrollHeight - element.scrollTop - element.clientHeight <= bottomSlack) following.current = true
    else if (performance.now() - intent.current < intentMs) following.current = false
    else pin()
    setBehind(!following.current)
  }
  const jump = (): void => {
    following.current = true
    setBehind(false)
    box.current?.scrollTo({ top: box.current.scrollHeight })
  }
  useLayoutEffect(() => {
    following.current = true
  }, [restart])
  useEffect(() => {
    if (content.current === null || typeof ResizeObserver !== 'function') return undefined
    const observer = new ResizeObserver(pin)
    observer.observe(content.current)
    return () => observer.disconnect()
  }, [])
  useLayoutEffect(pin, [...changes, restart])
  return { box, content, behind, jump, handlers: { onScroll, onWheel: onIntent, onKeyDown: onIntent, onTouchMove: onIntent, onPointerDown: onIntent } }
}
