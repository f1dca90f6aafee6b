/**
 * Bounded instruction read: the reported size is checked first, then the content is streamed
 * with the provider's cap and a running UTF-8 byte count of our own, so missing or stale size
 * metadata, a growing file or a provider that ignores the cap can never force an unbounded
 * allocation. Non-UTF-8 and NUL-bearing (binary) content is reported, never injected.
 */
import type { FileSystemPort } from '@dsh/contracts'
import { fsErrorCode, rethrowIfAborted } from './abort.ts'
import { errorMessage } from './guards.ts'
import type { UnavailableReason } from './types.ts'
import { utf8Bytes } from './utf8.ts'

/** Outcome of a bounded read. */
export type ReadOutcome =
  | { readonly ok: true; readonly text: string; readonly bytes: number }
  | { readonly ok: false; readonly reason: UnavailableReason; readonly detail?: string }

/** Reads `target` as UTF-8 text of at most `maxBytes` bytes. Rethrows only cancellation. */
export async function readBounded(fs: FileSystemPort, target: string, maxBytes: number, size: number | undefined, signal?: AbortSignal): Promise<ReadOutcome> {
  if (size !== undefined && size > maxBytes) return { ok: false, reason: 'too-large', detail: `${size} bytes` }
  const chunks: string[] = []
  let bytes = 0
  try {
    for await (const chunk of fs.streamText(target, { maxBytes, ...(signal === undefined ? {} : { signal }) })) {
      bytes += utf8Bytes(chunk)
      if (bytes > maxBytes) return { ok: false, reason: 'too-large', detail: `more than ${maxBytes} bytes` }
      chunks.push(chunk)
    }
  } catch (error) {
    // Expected read failures (too large, not UTF-8, a special file found at open, a vanished or
    // unreadable file) make this candidate unavailable for now; they are not proof of deletion.
    rethrowIfAborted(error, signal)
    const code = fsErrorCode(error)
    if (code === 'FS_TOO_LARGE') return { ok: false, reason: 'too-large' }
    if (code === 'FS_NOT_UTF8') return { ok: false, reason: 'not-utf8' }
    if (code === 'FS_SPECIAL_FILE' || code === 'FS_NOT_A_FILE') return { ok: false, reason: 'special-file-at-open' }
    return { ok: false, reason: 'read-failed', detail: errorMessage(error) }
  }
  const text = chunks.join('')
  if (text.includes('\u0000')) return { ok: false, reason: 'binary' }
  return { ok: true, text, bytes }
}
