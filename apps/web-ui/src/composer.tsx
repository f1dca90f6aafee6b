/**
 * The "Message" textbox (Enter sends, Shift+Enter a new line) with Send and Cancel. The draft is
 * its own state: typing re-renders this form only, never the transcript.
 */
import type { JSX } from 'preact'
import { useState } from 'preact/hooks'
import { useStrings } from './i18n.ts'

export interface ComposerProps {
  readonly busy: boolean
  readonly connected: boolean
  /** Sends the text; resolves true when the server took it (the draft is then cleared). */
  readonly send: (text: string) => Promise<boolean>
  readonly cancel: () => void
}

export function Composer(props: ComposerProps): JSX.Element {
  const t = useStrings()
  const [draft, setDraft] = useState('')
  const send = (): void => {
    const text = draft.trim()
    if (text === '' || props.busy || !props.connected) return
    void props.send(text).then((taken) => (taken ? setDraft('') : undefined))
  }
  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault()
      send()
    }
  }
  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault()
        send()
      }}
    >
      <label class="visually-hidden" for="message">
        {t.message}
      </label>
      <textarea id="message" rows={3} value={draft} readOnly={!props.connected} placeholder={t.messageHint} onInput={(event) => setDraft(event.currentTarget.value)} onKeyDown={onKeyDown} />
      <div class="composer-buttons">
        <button type="submit" class="primary" disabled={props.busy || !props.connected || draft.trim() === ''}>
          {t.send}
        </button>
        <button type="button" onClick={props.cancel} disabled={!props.busy}>
          {t.cancel}
        </button>
      </div>
    </form>
  )
}
