/**
 * Turns a finished snippet run into the model-visible run_code result: captured output, the
 * returned value, a footer listing the nested calls, and, for failures, what went wrong and how to
 * recover. The README's "What the model sees" section documents these texts.
 */
import type { ToolOutput } from '@dsh/contracts'
import type { DoneMessage, SnippetError } from './ipc-protocol.ts'
import { clipText } from './output-capture.ts'
import type { NestedCallRecord, SnippetEnd, SnippetRun } from './snippet-process.ts'

/** Limits the texts mention. */
export interface ResultLimits {
  readonly timeoutMs: number
  readonly maxTimeoutMs: number
  readonly maxOutputChars: number
  readonly nodePath: string
}

const footerEntries = 50
const marks = { ok: '✓', error: '✗', stopped: '⊘', running: '…' } as const
const legends = { stopped: '⊘ = cancelled when the snippet ended', running: '… = still running when the snippet ended' } as const

function footer(calls: readonly NestedCallRecord[]): string {
  if (calls.length === 0) return 'Nested tool calls: none'
  const shown = calls.slice(0, footerEntries).map((call) => `${call.name} ${marks[call.state]}`)
  const more = calls.length > footerEntries ? `, … and ${calls.length - footerEntries} more` : ''
  const used = (['stopped', 'running'] as const).filter((state) => calls.some((call) => call.state === state))
  const legend = used.length === 0 ? '' : ` (${used.map((state) => legends[state]).join('; ')})`
  return `Nested tool calls: ${shown.join(', ')}${more}${legend}`
}

function body(output: string, returned: string | undefined, max: number): string {
  const sections: string[] = []
  if (output !== '') sections.push(`Output:\n${output.replace(/\n$/, '')}`)
  if (returned !== undefined) sections.push(`Returned:\n${returned}`)
  return clipText(sections.join('\n\n'), max)
}

function where(error: SnippetError): string {
  if (error.line === undefined) return ''
  return error.column === undefined ? ` (snippet line ${error.line})` : ` (snippet line ${error.line}, column ${error.column})`
}

function finishedHeadline(done: DoneMessage): string {
  if (done.ok) return ''
  const error = done.error
  if (done.phase === 'compile') {
    return `The snippet did not compile: ${error.name}: ${error.message}${where(error)}. The code runs as the body of an async function: use await and return directly, and load modules with await import('node:fs/promises') instead of import statements. Fix the code and call run_code again.`
  }
  if (error.name === 'ToolCallError' && error.tool !== undefined) {
    return `The snippet stopped because tools.${error.tool} failed: ${error.message}\nA failed nested call rejects with a ToolCallError; catch it inside the snippet to handle the failure, or fix the call. Nested calls made before it already took effect.`
  }
  return `The snippet threw ${error.name}: ${error.message}${where(error)}. Fix the snippet and call run_code again; nested tool calls it made before the error already took effect.`
}

/** The first paragraph of an error result; '' for a snippet that finished normally. */
function failureHeadline(end: SnippetEnd, limits: ResultLimits): string {
  if (end.kind === 'finished') return finishedHeadline(end.done)
  if (end.kind === 'timeout') {
    return `The snippet ran longer than ${limits.timeoutMs} ms and was stopped (its process group was killed). Do less per run_code call, or pass a larger timeout_ms (at most ${limits.maxTimeoutMs}).`
  }
  if (end.kind === 'cancelled') return 'run_code was cancelled; the snippet process was killed.'
  if (end.kind === 'exited') {
    const how = end.signal === null ? `exited with code ${end.code ?? 'unknown'}` : `was killed by ${end.signal}`
    return `The snippet process ${how} before the snippet finished. Return a value instead of calling process.exit(), and await every promise the snippet creates.`
  }
  return `run_code could not start Node.js (${limits.nodePath}): ${end.message}. Use the other tools directly instead.`
}

/** The tool output for a run. */
export function formatRun(run: SnippetRun, limits: ResultLimits): ToolOutput {
  const returned = run.end.kind === 'finished' && run.end.done.ok ? run.end.done.returned : undefined
  const main = body(run.output, returned, limits.maxOutputChars)
  const meta = {
    end: run.end.kind,
    durationMs: run.durationMs,
    nestedCalls: run.calls.map((call) => ({ name: call.name, state: call.state })),
    ...(run.pid === undefined ? {} : { pid: run.pid }),
  }
  const headline = failureHeadline(run.end, limits)
  if (headline === '') {
    const text = main === '' ? 'The snippet produced no output and returned nothing.' : main
    return { content: `${text}\n\n${footer(run.calls)}`, meta }
  }
  const parts = [headline, ...(main === '' ? [] : [main]), footer(run.calls)]
  return { isError: true, content: parts.join('\n\n'), meta }
}
