/**
 * Where `dsh run` takes its prompt from: the words after the options, or stdin when the only word
 * is `-` or there are none and stdin is not a terminal (`echo hi | dsh run`), as `codex exec -`
 * does. A prompt that is empty or only whitespace is a usage error: the model is never called.
 */
import { usageError } from './cli-error.ts'
import type { CliIo } from './cli-io.ts'

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  return Buffer.concat(chunks).toString('utf8')
}

/** The prompt of `dsh run`; throws a usage error when there is none. */
export async function promptFrom(io: CliIo, words: readonly string[]): Promise<string> {
  const fromStdin = words.length === 0 || (words.length === 1 && words[0] === '-')
  if (!fromStdin) {
    const prompt = words.join(' ')
    if (prompt.trim() === '') throw usageError('the prompt is empty: say what the agent should do')
    return prompt
  }
  const stdin = io.stdin
  if (stdin === undefined || (words.length === 0 && stdin.isTTY === true)) {
    throw usageError('missing prompt: pass it as an argument, or pipe it on stdin (dsh run - reads it from stdin)')
  }
  const prompt = (await readAll(stdin)).trimEnd()
  if (prompt.trim() === '') throw usageError('the prompt read from stdin is empty: say what the agent should do')
  return prompt
}
