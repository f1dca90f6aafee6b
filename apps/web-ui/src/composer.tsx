/**
 * The "Message" textbox (Enter sends, Shift+Enter a new line, Esc cancels a running turn and
 * keeps the draft) with Send and Cancel, and the
 * session's `/commands` matching what is typed (Tab or a click completes the first or the chosen
 * one). The draft is its own state: typing re-renders this form only, never the transcript. A
 * rewound turn's prompt fills an empty draft, to be edited and sent again.
 */
import type { JSX } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { commandMatches, type CommandItem } from './command-matches.ts'
import { useStrings } from './i18n.ts'

export interface ComposerProps {
  readonly busy: boolean
  readonly connected: boolean
  /** Sends the text; resolves true when the server took it (the draft is then cleared). */
  readonly send: (text: string) => Promise<boolean>
  readonly cancel: () => void
  /** The session's custom commands and skills, for completion. */
  readonly commands: readonly CommandItem[]
  /** A prompt a rewind took back; each new serial fills the draft if it is empty. */
  readonly restored?: { readonly text: string; readonly serial: number } | undefined
}

export function Composer(props: ComposerProps): JSX.Element {
  const t = useStrings()
  const [draft, setDraft] = useState('')
  const restored = props.restored
  useEffect(() => {
    // What the person typed meanwhile is theirs: only an empty draft takes the rewound prompt.
    if (restored !== undefined) setDraft((current) => (current.trim() === '' ? restored.text : current))
  }, [restored?.serial])
  const send = (): void => {
    const text = draft.trim()
    if (text === '' || props.busy || !props.connected) return
    void props.send(text).then((taken) => (taken ? setDraft('') : undefined))
  }
  const matches = commandMatches(draft, props.commands)
  const onKeyDown = (event: KeyboardEvent): void => {
    const [first] = matches
    if (event.key === 'Tab' && first !== undefined) {
      event.preventDefault()
      setDraft(`/${first.name} `)
      return
    }
    if (event.key === 'Escape' && props.busy && !event.isComposing) {
      event.preventDefault()
      props.cancel()
      return
    }
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
      {matches.length === 0 ? null : (
        <ul class="command-list" role="listbox" aria-label={t.commands}>
          {matches.map((command) => (
            <li key={command.name} role="option" aria-selected={command === matches[0]} onClick={() => setDraft(`/${command.name} `)}>
              <code>/{command.name}</code> {command.hint === undefined ? '' : `${command.hint} `}— {command.description}
            </li>
          ))}
        </ul>
      )}
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
