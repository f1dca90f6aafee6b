/**
 * Where `dsh run` takes its prompt from: the words after the options, or stdin when the only word
 * is `-` or there are none and stdin is not a terminal (`echo hi | dsh run`), as `codex exec -`
 * does. Beside prompt words, text piped in (`git diff | dsh run "review this"`) or redirected from
 * a file is appended as a `<stdin>` block, as Claude Code and Codex do; on a pipe only if its first
 * byte or its end comes within `DSH_STDIN_WAIT_MS` (default 2000), else the run goes on with the
 * words and says so, where Codex waits forever on a pipe its parent never closes. A last word `-`
 * waits for the whole text however long it takes. A prompt that is empty or only whitespace is a
 * usage error: the model is never called.
 */
import { usageError } from './cli-error.ts'
import { errLine, type CliIo } from './cli-io.ts'
import { readStdinText } from './stdin-text.ts'

/** How long a pipe beside prompt words may stay silent before the run goes on without it. */
export const DEFAULT_STDIN_WAIT_MS = 2000

function waitMs(io: CliIo): number {
  const raw = io.env['DSH_STDIN_WAIT_MS']
  if (raw === undefined || raw === '') return DEFAULT_STDIN_WAIT_MS
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0) throw usageError(`DSH_STDIN_WAIT_MS=${raw}: expected a whole number of milliseconds`)
  return value
}

/** The prompt words with the piped text after them, when there is any. */
const withStdin = (prompt: string, text: string): string => (text.trim() === '' ? prompt : `${prompt}\n\n<stdin>\n${text.trimEnd()}\n</stdin>`)

/** The prompt of `dsh run`; throws a usage error when there is none. */
export async function promptFrom(io: CliIo, words: readonly string[]): Promise<string> {
  const explicit = words.at(-1) === '-'
  const promptWords = explicit ? words.slice(0, -1) : words
  const stdin = io.stdin
  const kind = stdin === undefined ? 'none' : (io.stdinKind?.() ?? (stdin.isTTY === true ? 'terminal' : 'pipe'))
  if (promptWords.length === 0) {
    if (stdin === undefined || (!explicit && kind === 'terminal')) throw usageError('missing prompt: pass it as an argument, or pipe it on stdin (dsh run - reads it from stdin)')
    const read = await readStdinText(stdin)
    const prompt = read.kind === 'text' ? read.text.trimEnd() : ''
    if (prompt.trim() === '') throw usageError('the prompt read from stdin is empty: say what the agent should do')
    return prompt
  }
  const prompt = promptWords.join(' ')
  if (prompt.trim() === '') throw usageError('the prompt is empty: say what the agent should do')
  if (stdin === undefined || (!explicit && (kind === 'terminal' || kind === 'none'))) return prompt
  if (explicit || kind === 'file') {
    const read = await readStdinText(stdin)
    return read.kind === 'text' ? withStdin(prompt, read.text) : prompt
  }
  const wait = waitMs(io)
  const read = await readStdinText(stdin, { firstByteMs: wait })
  if (read.kind === 'text') return withStdin(prompt, read.text)
  errLine(io, `dsh: nothing came on stdin within ${wait} ms; going on with the prompt alone (end the prompt with - to wait for piped text, or give < /dev/null to skip the wait)`)
  return prompt
}
