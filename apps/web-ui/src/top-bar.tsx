/**
 * The page's header: title, "Folders" and "Close session" for the session shown; on a wide window
 * also the cwd, the notifications switch and the language (the {@link HeaderTools}); on a narrow
 * one the "Sessions" and "Panel" buttons that open the drawers instead (the cwd and the tools move
 * to the end of the sessions drawer).
 */
import type { JSX } from 'preact'
import { useStrings, type Language } from './i18n.ts'
import { notificationsSupported } from './desktop-notify.ts'

export type Drawer = 'sessions' | 'panel'

/** The notifications switch and the language choice. */
export function HeaderTools(props: { readonly notify: boolean; readonly setNotify: (on: boolean) => void; readonly language: Language; readonly setLanguage: (language: Language) => void }): JSX.Element {
  const t = useStrings()
  return (
    <>
      {notificationsSupported() ? (
        <label class="notify">
          <input type="checkbox" checked={props.notify} onChange={(event) => props.setNotify(event.currentTarget.checked)} /> {t.notifySwitch}
        </label>
      ) : null}
      <label class="language">
        {t.language}{' '}
        <select value={props.language} onChange={(event) => props.setLanguage(event.currentTarget.value === 'zh' ? 'zh' : 'en')}>
          <option value="en">English</option>
          <option value="zh">中文</option>
        </select>
      </label>
    </>
  )
}

export interface TopBarProps {
  /** Narrow window: the drawer buttons instead of the tools. */
  readonly narrow: boolean
  readonly drawer: Drawer | undefined
  readonly toggle: (drawer: Drawer) => void
  /** A chat is shown (Folders, Close session and Panel act on it). */
  readonly chat: boolean
  readonly folders: () => void
  readonly close: () => void
  /** Questions waiting in any session (the narrow "Sessions" button shows the count). */
  readonly waiting: number
  readonly cwd: string
  readonly tools: JSX.Element
}

export function TopBar(props: TopBarProps): JSX.Element {
  const t = useStrings()
  const drawerButton = (drawer: Drawer, label: string, name?: string): JSX.Element => (
    <button type="button" class="drawer-toggle" aria-label={name} aria-expanded={props.drawer === drawer} aria-controls={drawer === 'sessions' ? 'sessions-drawer' : 'panel-drawer'} disabled={drawer === 'panel' && !props.chat} onClick={() => props.toggle(drawer)}>
      {label}
    </button>
  )
  return (
    <header class="top">
      {props.narrow ? drawerButton('sessions', props.waiting > 0 ? `☰ ${props.waiting}` : '☰', props.waiting > 0 ? `${t.sessions} (${props.waiting})` : t.sessions) : null}
      <h1>{t.appTitle}</h1>
      {props.narrow ? null : <code class="cwd">{props.cwd}</code>}
      <span class="spacer" />
      <button type="button" onClick={props.folders} disabled={!props.chat}>
        {t.folders}
      </button>
      <button type="button" onClick={props.close} disabled={!props.chat} aria-label={props.narrow ? t.closeSession : undefined}>
        {props.narrow ? t.closeShort : t.closeSession}
      </button>
      {props.narrow ? drawerButton('panel', t.showPanel) : props.tools}
    </header>
  )
}
