/**
 * `--input-format stream-json`: user messages as JSON lines on stdin, one turn each, in Claude
 * Code's shape — `{"type":"user","message":{"role":"user","content":"text"}}`, where `content`
 * may also be a list of `{"type":"text","text":"…"}` blocks. Blank lines are skipped; a line
 * that is not such a message is a usage error naming its line number. The next line is read only
 * after the previous turn ended, so a program can wait for a `result` line before it writes more.
 */
import { createInterface } from 'node:readline'
import { usageError } from '../cli-error.ts'

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The text of one content value, or undefined when it has none. */
function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return undefined
  const parts = content.filter(isRecord).filter((block) => block['type'] === 'text' && typeof block['text'] === 'string')
  return parts.length === 0 ? undefined : parts.map((block) => String(block['text'])).join('\n')
}

/** The prompt of one line; throws a usage error naming the line. */
export function promptOfLine(line: string, number: number): string {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch (error) {
    // The parser's message is the detail of the one-line error below.
    throw usageError(`stdin line ${number}: not JSON (${error instanceof Error ? error.message : String(error)}); send {"type":"user","message":{"role":"user","content":"…"}}`)
  }
  const message = isRecord(value) && value['type'] === 'user' && isRecord(value['message']) ? value['message'] : undefined
  const text = message === undefined ? undefined : textOf(message['content'])
  if (text === undefined || text.trim() === '') throw usageError(`stdin line ${number}: expected {"type":"user","message":{"role":"user","content":"…"}} with non-empty text`)
  return text
}

/** The prompts on `stdin`, read one line at a time as the caller asks for them. */
export async function* stdinPrompts(stdin: NodeJS.ReadableStream): AsyncGenerator<string> {
  const lines = createInterface({ input: stdin, crlfDelay: Infinity })
  let number = 0
  for await (const line of lines) {
    number += 1
    if (line.trim() === '') continue
    yield promptOfLine(line, number)
  }
}
