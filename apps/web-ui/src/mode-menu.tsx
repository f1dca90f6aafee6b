/**
 * The session's permission mode above the composer: a menu of the modes the session can switch to
 * (ask, auto-edit, full-auto when dsh web started in one of them), with what the mode in force
 * asks about. A switch applies from the session's next permission decision, a running turn
 * included; every tab showing the session follows it. A refused switch is shown as the error line
 * and the menu goes back to the mode in force.
 */
import type { JSX } from 'preact'
import { useState } from 'preact/hooks'
import type { ModeView } from './api-types.ts'
import { useStrings } from './i18n.ts'

export function ModeMenu(props: { readonly mode: ModeView; readonly choose: (mode: string) => Promise<boolean> }): JSX.Element {
  const t = useStrings()
  /** Bumped after a refused switch: the menu is drawn again showing the mode in force. */
  const [refusals, setRefusals] = useState(0)
  const { current, available } = props.mode
  const chosen = available.find((choice) => choice.id === current)
  return (
    <p class="mode-menu">
      <label>
        {t.permissionMode}{' '}
        <select
          key={`${current}/${refusals}`}
          value={current}
          disabled={available.length < 2}
          onChange={(event) => {
            const mode = event.currentTarget.value
            void props.choose(mode).then((taken) => (taken ? undefined : setRefusals((count) => count + 1)))
          }}
        >
          {available.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {t.modeName(choice.id, choice.name)}
            </option>
          ))}
        </select>
      </label>{' '}
      <span class="mode-note">{chosen?.description ?? current}</span>
    </p>
  )
}
