/** The model's reasoning before an answer: collapsed, with a "Thinking…" label while it streams. */
import type { JSX } from 'preact'
import { useStrings } from './i18n.ts'

export function Reasoning(props: { readonly text: string; readonly streaming: boolean }): JSX.Element {
  const t = useStrings()
  return (
    <details class={props.streaming ? 'reasoning thinking' : 'reasoning'}>
      <summary>{props.streaming ? t.thinking : t.reasoning(props.text.length)}</summary>
      <div class="reasoning-text">{props.text}</div>
    </details>
  )
}
