/**
 * The "Message" textbox (Enter sends, Shift+Enter a new line, Esc cancels a running turn and
 * keeps the draft) with Send and Cancel, the session's `/commands` matching what is typed, and
 * for an `@partial` before the caret the paths the server suggests (mention-complete.ts); Tab or a
 * click completes the first or the chosen one. The draft is its own state: typing re-renders this form only, never the transcript. A
 * rewound turn's prompt fills an empty draft, to be edited and sent again.
 */
import type { JSX } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { commandMatches, type CommandItem } from './command-matches.ts'
import { useStrings } from './i18n.ts'
import { applyMention, mentionToken, type MentionItem } from './mention-complete.ts'

/** How long typing must pause before the paths of an `@partial` are asked for, in ms. */
const MENTION_PAUSE_MS = 80

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
  /** The paths an `@partial` may complete to (absent: no `@` completion). */
  readonly mentions?: ((prefix: string) => Promise<readonly MentionItem[]>) | undefined
}

/** The suggestions for the `@partial` before the caret, asked for once typing pauses; stale answers are dropped. */
function useMentions(token: string | undefined, ask: ComposerProps['mentions']): readonly MentionItem[] {
  const [found, setFound] = useState<{ readonly prefix: string; readonly items: readonly MentionItem[] }>({ prefix: '', items: [] })
  useEffect(() => {
    if (token === undefined || ask === undefined) return undefined
    let current = true
    const timer = setTimeout(() => {
      // Completion only: a listing that fails suggests nothing, and typing goes on.
      ask(token)
        .then((items) => (current ? setFound({ prefix: token, items }) : undefined))
        .catch(() => (current ? setFound({ prefix: token, items: [] }) : undefined))
    }, MENTION_PAUSE_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [token, ask])
  return token !== undefined && found.prefix === token ? found.items : []
}

export function Composer(props: ComposerProps): JSX.Element {
  const t = useStrings()
  const [draft, setDraft] = useState('')
  const [caret, setCaret] = useState(0)
  const box = useRef<HTMLTextAreaElement>(null)
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
  const token = mentionToken(draft, caret)
  const paths = useMentions(token?.prefix, props.mentions)
  const complete = (item: MentionItem): void => {
    if (token === undefined) return
    const next = applyMention(draft, token.start, caret, item.value)
    // The box takes the text and the caret now, not in an effect after the next paint: a key
    // typed in between would otherwise land where the caret was and be moved behind it.
    const element = box.current
    if (element !== null) {
      element.value = next.text
      element.setSelectionRange(next.caret, next.caret)
      element.focus()
    }
    setDraft(next.text)
    setCaret(next.caret)
  }
  const onKeyDown = (event: KeyboardEvent): void => {
    const [first] = matches
    const [firstPath] = paths
    if (event.key === 'Tab' && first !== undefined) {
      event.preventDefault()
      setDraft(`/${first.name} `)
      return
    }
    if (event.key === 'Tab' && firstPath !== undefined) {
      event.preventDefault()
      complete(firstPath)
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
      <textarea
        id="message"
        ref={box}
        rows={3}
        value={draft}
        readOnly={!props.connected}
        placeholder={t.messageHint}
        onInput={(event) => {
          setDraft(event.currentTarget.value)
          setCaret(event.currentTarget.selectionStart)
        }}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
      />
      {matches.length === 0 ? null : (
        <ul class="command-list" role="listbox" aria-label={t.commands}>
          {matches.map((command) => (
            <li key={command.name} role="option" aria-selected={command === matches[0]} onClick={() => setDraft(`/${command.name} `)}>
              <code>/{command.name}</code> {command.hint === undefined ? '' : `${command.hint} `}— {command.description}
            </li>
          ))}
        </ul>
      )}
      {matches.length > 0 || paths.length === 0 ? null : (
        <ul class="command-list mention-list" role="listbox" aria-label={t.paths}>
          {paths.map((item) => (
            <li key={item.value} role="option" aria-selected={item === paths[0]} onMouseDown={(event) => event.preventDefault()} onClick={() => complete(item)}>
              <code>{item.label}</code> <span class="mention-dir">{item.description}</span>
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
