/**
 * Under a prompt: which `@`-mentioned files went with it ("Attached: src/app.ts, docs/a.md") and
 * one line per file that was named instead of sent, with the first sentence of why.
 */
import type { JSX } from 'preact'
import type { AttachedFile } from './api-types.ts'
import { useStrings } from './i18n.ts'

const firstSentence = (text: string): string => {
  const end = text.search(/[.;:](\s|$)/)
  return end < 0 ? text : text.slice(0, end)
}

export function AttachedNote(props: { readonly files: readonly AttachedFile[] }): JSX.Element {
  const t = useStrings()
  const sent = props.files.filter((file) => file.refused === undefined).map((file) => file.path)
  return (
    <div class="attached-note notice">
      {sent.length === 0 ? null : <p>{t.attachedFiles(sent)}</p>}
      {props.files.map((file) => (file.refused === undefined ? null : <p key={file.path}>{t.notAttached(file.path, firstSentence(file.refused))}</p>))}
    </div>
  )
}
