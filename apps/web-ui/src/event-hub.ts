/**
 * The browser-wide event stream, shared by every tab of this page in one browser: one tab (the
 * leader, chosen with a Web Lock) holds the only `EventSource` on `/api/stream` and relays each
 * message to the other tabs over a BroadcastChannel; when it closes, the next tab takes the lock
 * and opens the stream. Browsers allow about six HTTP/1.1 connections per host, so a stream per tab
 * would starve the seventh tab; this way eight tabs use one. Without Web Locks or BroadcastChannel
 * every tab opens its own stream. Listeners get the server's messages plus `lost` (the stream
 * broke; `hello` follows when it is back, and every tab then re-reads what it shows).
 */
import type { StreamMessage } from './api-types.ts'

/** What listeners receive. */
export type HubMessage = StreamMessage | { readonly kind: 'lost' }

/** The shared stream of one tab. */
export interface EventHub {
  /** True after a `hello` and until a `lost`. */
  readonly open: boolean
  /** Adds a listener (must not throw); returns its remover. */
  listen(listener: (message: HubMessage) => void): () => void
  /** Leaves: gives the lead up (another tab takes it) and stops listening. */
  close(): void
}

/** Messages between tabs. */
type Relay = { readonly type: 'relay'; readonly messages: readonly HubMessage[]; readonly to?: string } | { readonly type: 'join'; readonly from: string }

const channelName = 'dsh-web-stream'

/** Opens the hub of this tab. */
export function openEventHub(): EventHub {
  const listeners = new Set<(message: HubMessage) => void>()
  const me = crypto.randomUUID()
  const quit = new AbortController()
  let open = false
  let leading = false
  const deliver = (message: HubMessage): void => {
    if (message.kind === 'hello') open = true
    if (message.kind === 'lost') open = false
    for (const listener of listeners) listener(message)
  }
  const shared = typeof BroadcastChannel === 'function' && typeof navigator.locks?.request === 'function'
  const channel = shared ? new BroadcastChannel(channelName) : undefined
  const post = (relay: Relay): void => {
    // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a BroadcastChannel reaches only this origin's tabs; its postMessage has no target origin
    channel?.postMessage(relay)
  }
  // The leader relays in batches: messages that arrived in one burst go to the other tabs in one post
  // (a MessageChannel task, which hidden tabs do not throttle as they do timers).
  let batch: HubMessage[] = []
  const tick = new MessageChannel()
  tick.port1.addEventListener('message', () => {
    post({ type: 'relay', messages: batch })
    batch = []
  })
  tick.port1.start()
  const relay = (message: HubMessage): void => {
    if (channel === undefined) return
    if (batch.length === 0) tick.port2.postMessage(0)
    batch.push(message)
  }
  const lead = (): Promise<void> =>
    new Promise<void>((resolve) => {
      leading = true
      const source = new EventSource('/api/stream')
      source.addEventListener('message', (event: MessageEvent<string>) => {
        // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the server writes StreamMessage JSON (packages/web/src/web-types.ts)
        const message = JSON.parse(event.data) as StreamMessage
        deliver(message)
        relay(message)
      })
      source.addEventListener('error', () => {
        // The stream broke (dsh web stopped or restarted): EventSource retries on its own; every tab says so meanwhile.
        if (!open) return
        deliver({ kind: 'lost' })
        relay({ kind: 'lost' })
      })
      quit.signal.addEventListener('abort', () => {
        source.close()
        leading = false
        resolve()
      })
    })
  if (channel === undefined) void lead()
  else {
    channel.addEventListener('message', (event: MessageEvent<Relay>) => {
      const received = event.data
      if (received.type === 'join') {
        // A new tab asks whether the stream is open; the leader answers that tab alone (a stream still opening sends its hello to all).
        if (leading && open) post({ type: 'relay', to: received.from, messages: [{ kind: 'hello' }] })
      } else if (received.to === undefined || received.to === me) for (const message of received.messages) deliver(message)
    })
    navigator.locks.request(`${channelName}-leader`, { signal: quit.signal }, lead).catch(() => undefined) // rejects with AbortError when the tab leaves before it led: nothing to undo
    post({ type: 'join', from: me })
  }
  return {
    get open() {
      return open
    },
    listen(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    close() {
      quit.abort()
      channel?.close()
      tick.port1.close()
      listeners.clear()
    },
  }
}
