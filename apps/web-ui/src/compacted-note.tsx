/**
 * Where a compaction summarised the history before it: a closed note that opens on the summary the
 * model has in place of that history (shown as text, like reasoning: it is the model's own words).
 */
import type { JSX } from 'preact'
import { useStrings } from './i18n.ts'

export function CompactedNote(props: { readonly summary: string }): JSX.Element {
  const t = useStrings()
  return (
    <details class="compacted notice">
      <summary>{t.compacted}</summary>
      <div class="compacted-summary">{props.summary}</div>
    </details>
  )
}
