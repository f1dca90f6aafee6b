/**
 * One tool call as a collapsible row: name and a one-line summary; opened, the arguments and the
 * result. While the call runs, the last lines it printed show under the row.
 */
import type { JSX } from 'preact'
import { useStrings } from './i18n.ts'

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

export function ToolRow(props: { readonly name: string; readonly arguments: string; readonly result?: string | undefined; readonly isError?: boolean | undefined; readonly output?: string | undefined }): JSX.Element {
  const t = useStrings()
  const state = props.result === undefined ? t.toolRunning : props.isError === true ? t.toolFailed : t.toolDone
  return (
    <>
      <details class={`tool ${props.result === undefined ? 'running' : props.isError === true ? 'failed' : 'ok'}`}>
        <summary>
          <span class="tool-name">{props.name}</span> <span class="tool-summary">{summary(props.name, props.arguments)}</span> <span class="tool-state">{state}</span>
        </summary>
        <pre class="tool-args">{props.arguments}</pre>
        {props.result === undefined ? null : <pre class="tool-result">{props.result}</pre>}
      </details>
      {props.result === undefined && props.output !== undefined ? <pre class="tool-live">{lastLines(props.output)}</pre> : null}
    </>
  )
}
