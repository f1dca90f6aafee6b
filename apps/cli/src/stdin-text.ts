/**
 * The text piped into `dsh run`: UTF-8 and at most 64 MiB (a bound for memory: far above any
 * context window, and above the 20 MB prompts the session log stores once), or a one-line usage
 * error. It is read to its end, or, beside a prompt argument on a pipe, only if its first byte (or
 * its end) comes within a window: a parent that left an inherited pipe open and never writes to it
 * (CI runners, other agents' shell tools) must not hang the run, which is what `codex exec` does
 * there. A stream given up on is destroyed, so the process can exit.
 */
import { usageError } from './cli-error.ts'

/** Largest stdin text read, in bytes. */
export const MAX_STDIN_BYTES = 64 * 1024 * 1024

/** What stdin is: a terminal, a regular file, a pipe or socket, or nothing to read (`/dev/null`, another device, closed). */
export type StdinKind = 'terminal' | 'file' | 'pipe' | 'none'

/** The text read, or `nothing-yet` when neither a byte nor the end came within the window. */
export type StdinText = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'nothing-yet' }

const decoder = new TextDecoder('utf-8', { fatal: true })

function decode(bytes: Buffer): string {
  try {
    return decoder.decode(bytes)
  } catch (error) {
    // A TypeError for the first invalid sequence: binary input, which no prompt can carry.
    if (!(error instanceof TypeError)) throw error
    throw usageError('the text on stdin is not UTF-8 (binary input?): save it to a file and name the file in the prompt')
  }
}

/** Stops reading `stream` for good. */
function giveUp(stream: NodeJS.ReadableStream): void {
  // A late error of a stream given up on (its writer vanishing) concerns nobody any more.
  stream.on('error', () => undefined)
  stream.pause()
  if ('destroy' in stream && typeof stream.destroy === 'function') stream.destroy()
}

/** Reads `stream` to its end; with `firstByteMs`, gives up (`nothing-yet`) when no byte and no end came by then. */
export function readStdinText(stream: NodeJS.ReadableStream, options: { readonly firstByteMs?: number; readonly maxBytes?: number } = {}): Promise<StdinText> {
  const maxBytes = options.maxBytes ?? MAX_STDIN_BYTES
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let timer: NodeJS.Timeout | undefined
    const cleanup = (): void => {
      clearTimeout(timer)
      stream.off('data', onData)
      stream.off('end', onEnd)
      stream.off('error', onError)
    }
    const onData = (chunk: Buffer | string): void => {
      clearTimeout(timer)
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      size += bytes.length
      if (size > maxBytes) {
        cleanup()
        giveUp(stream)
        reject(usageError(`the text on stdin is larger than ${maxBytes / 1024 / 1024} MiB: save it to a file and name the file in the prompt`))
        return
      }
      chunks.push(bytes)
    }
    const onEnd = (): void => {
      cleanup()
      try {
        resolve({ kind: 'text', text: decode(Buffer.concat(chunks)) })
      } catch (error) {
        reject(error)
      }
    }
    const onError = (error: Error): void => {
      cleanup()
      reject(usageError(`cannot read stdin: ${error.message}`))
    }
    if (options.firstByteMs !== undefined) {
      timer = setTimeout(() => {
        cleanup()
        giveUp(stream)
        resolve({ kind: 'nothing-yet' })
      }, options.firstByteMs)
    }
    stream.on('data', onData)
    stream.on('end', onEnd)
    stream.on('error', onError)
  })
}
