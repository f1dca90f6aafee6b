/**
 * What a file-changing call does, shown instead of its JSON arguments: an `edit` as a unified diff
 * of the replaced text (`-` old, `+` new, three lines of context) under the file's path, a `write`
 * as a preview of the file's new content. Anything else (or arguments that do not parse) is not a
 * change; the row then shows the raw arguments.
 */
import type { JSX } from 'preact'
import { structuredPatch } from 'diff'
import { useStrings } from './i18n.ts'

/** A parsed file change. */
export type FileChange = { readonly kind: 'edit'; readonly path: string; readonly before: string; readonly after: string; readonly all: boolean } | { readonly kind: 'write'; readonly path: string; readonly content: string }

const field = (fields: Map<string, unknown>, name: string): string | undefined => {
  const value = fields.get(name)
  return typeof value === 'string' ? value : undefined
}

/** The change a call of `name` with `args` makes, if it is an edit or a write. */
export function fileChange(name: string, args: string): FileChange | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(args)
  } catch {
    // Broken JSON from the model: no change to show; the row shows the text as it is.
    return undefined
  }
  const fields = typeof parsed === 'object' && parsed !== null ? new Map(Object.entries(parsed)) : new Map<string, unknown>()
  const path = field(fields, 'file_path')
  if (path === undefined) return undefined
  const before = field(fields, 'old_string')
  const after = field(fields, 'new_string')
  if (name === 'edit' && before !== undefined && after !== undefined) return { kind: 'edit', path, before, after, all: fields.get('replace_all') === true }
  const content = field(fields, 'content')
  if (name === 'write' && content !== undefined) return { kind: 'write', path, content }
  return undefined
}

const withNewline = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`)

function Diff(props: { readonly before: string; readonly after: string; readonly path: string }): JSX.Element {
  const patch = structuredPatch(props.path, props.path, withNewline(props.before), withNewline(props.after), '', '', { context: 3 })
  return (
    <pre class="diff">
      {patch.hunks.map((hunk, index) => (
        <span key={index} class="diff-hunk">
          {index > 0 ? <span class="diff-gap">{'⋯\n'}</span> : null}
          {hunk.lines.map((line, at) => (
            <span key={at} class={line.startsWith('+') ? 'diff-add' : line.startsWith('-') ? 'diff-del' : 'diff-ctx'}>
              {`${line}\n`}
            </span>
          ))}
        </span>
      ))}
    </pre>
  )
}

/** The change as a diff or a preview, with the path as its heading. */
export function FileChangeView(props: { readonly change: FileChange }): JSX.Element {
  const t = useStrings()
  const { change } = props
  switch (change.kind) {
    case 'edit':
      return (
        <div class="file-change">
          <div class="file-path">
            <code>{change.path}</code> {change.all ? <span class="badge">{t.everyOccurrence}</span> : null}
          </div>
          <Diff before={change.before} after={change.after} path={change.path} />
        </div>
      )
    case 'write':
      return (
        <div class="file-change">
          <div class="file-path">
            <code>{change.path}</code> <span class="badge">{t.newContent(change.content === '' ? 0 : change.content.replace(/\n$/, '').split('\n').length)}</span>
          </div>
          <pre class="file-preview">{change.content}</pre>
        </div>
      )
    default:
      return change satisfies never
  }
}
