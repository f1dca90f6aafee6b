/**
 * One tool call as a collapsible row: name, a one-line summary and its state (running, waiting for
 * the person's answer, done, failed); opened, the arguments (an edit as a diff, a write as a file
 * preview, a `todo_write` as its checklist: those rows start open) and the result. While the call runs, the last lines it printed
 * show under the row; once a `bash` call ends they go and the row's summary says how it ended
 * (`exit 0 · 12 lines`) — opening the row shows everything its result kept.
 */
import type { JSX } from 'preact'
import { bashOutcome } from './bash-outcome.ts'
import { useStrings } from './i18n.ts'
import { toolLabel } from './tool-label.ts'
import { fileChange, FileChangeView } from './tool-change.tsx'
import { todoCounts, todoEntries, TodoListView } from './todo-list.tsx'

function summary(name: string, args: string): string {
  try {
    const parsed: unknown = JSON.parse(args)
    const fields = typeof parsed === 'object' && parsed !== null ? new Map(Object.entries(parsed)) : new Map<string, unknown>()
    const first: unknown = fields.get('command') ?? fields.get('file_path') ?? fields.get('path') ?? fields.get('pattern') ?? fields.get('code') ?? [...fields.values()][0]
    const text = typeof first === 'string' ? first : JSON.stringify(first ?? '')
    return text.split('\n')[0]?.slice(0, 120) ?? ''
  } catch {
    // Arguments the model wrote as broken JSON are shown as they are.
    return args.slice(0, 120) || name
  }
}

/** Lines of a running call's output shown under its row. */
const liveLines = 8

function lastLines(text: string): string {
  return text.replace(/\n$/, '').split('\n').slice(-liveLines).map((line) => line.slice(line.lastIndexOf('\r') + 1)).join('\n')
}

export interface ToolRowProps {
  readonly name: string
  readonly arguments: string
  readonly result?: string | undefined
  readonly isError?: boolean | undefined
  /** A permission question about this call waits for the person. */
  readonly waiting: boolean
  /** The last of what the running call printed (live only). */
  readonly output?: string | undefined
}

export function ToolRow(props: ToolRowProps): JSX.Element {
  const t = useStrings()
  const running = props.result === undefined
  const outcome = props.name === 'bash' && props.result !== undefined && props.isError !== true ? bashOutcome(props.result) : undefined
  const failed = props.isError === true || outcome?.ok === false
  const state = running ? (props.waiting ? t.toolWaiting : t.toolRunning) : outcome !== undefined ? t.bashEnded(outcome.status, outcome.lines) : failed ? t.toolFailed : t.toolDone
  const stateClass = running ? (props.waiting ? 'waiting' : 'running') : failed ? 'failed' : 'ok'
  const change = fileChange(props.name, props.arguments)
  // A checklist that was accepted shows instead of its arguments and result (which repeat it).
  const todos = failed ? undefined : todoEntries(props.name, props.arguments)
  const args = change !== undefined ? <FileChangeView change={change} /> : todos !== undefined ? <TodoListView entries={todos} /> : <pre class="tool-args">{props.arguments}</pre>
  return (
    <>
      <details class={`tool ${stateClass}`} open={change !== undefined || todos !== undefined}>
        <summary>
          <span class="tool-name" title={props.name}>{toolLabel(props.name)}</span> <span class="tool-summary">{todos === undefined ? summary(props.name, props.arguments) : t.todoProgress(todoCounts(todos).done, todoCounts(todos).total)}</span> <span class="tool-state">{state}</span>
        </summary>
        {args}
        {props.result === undefined || todos !== undefined ? null : <pre class="tool-result">{props.result}</pre>}
      </details>
      {running && props.output !== undefined ? <pre class="tool-live">{lastLines(props.output)}</pre> : null}
    </>
  )
}
