/**
 * Desktop notifications for questions (opt-in): with the page's "Desktop notifications" switch on
 * and the browser's permission granted, a permission question that arrives while this tab is
 * hidden raises one notification naming the tool and the command's first line. Every tab hears
 * the question; the notification's tag (one per session) makes the browser show it once. The
 * choice is kept in localStorage.
 */
import { useEffect, useState } from 'preact/hooks'
import type { EventHub } from './event-hub.ts'
import type { Strings } from './i18n.ts'

const storageKey = 'dsh-web-notify'

/** True when the browser has the Notification API at all. */
export const notificationsSupported = (): boolean => typeof Notification === 'function'

/** The switch's state and setter; turning it on asks the browser's permission first (false when refused). */
export function useNotifySwitch(): readonly [boolean, (on: boolean) => Promise<boolean>] {
  const [on, setOn] = useState(() => notificationsSupported() && localStorage.getItem(storageKey) === 'on' && Notification.permission === 'granted')
  const change = async (wanted: boolean): Promise<boolean> => {
    if (!wanted || !notificationsSupported()) {
      localStorage.removeItem(storageKey)
      setOn(false)
      return !wanted
    }
    const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission()
    const granted = permission === 'granted'
    if (granted) localStorage.setItem(storageKey, 'on')
    setOn(granted)
    return granted
  }
  return [on, change]
}

/** Raises a notification for each question that arrives while the tab is hidden and the switch is on. */
export function useQuestionNotifications(hub: EventHub, on: boolean, t: Strings): void {
  useEffect(() => {
    if (!on || !notificationsSupported()) return undefined
    return hub.listen((message) => {
      if (message.kind !== 'session' || message.event.kind !== 'approval' || document.visibilityState !== 'hidden') return
      const { approval } = message.event
      const first = approval.code.split('\n')[0] ?? ''
      // A notification the browser refuses (permission withdrawn meanwhile) only costs the signal; the title and icon still change.
      try {
        const note = new Notification(t.notifyTitle, { body: `${approval.tool}: ${first.slice(0, 120)}`, tag: `dsh-question-${message.session}` })
        // A click brings the tab forward, where the question waits.
        note.addEventListener('click', () => window.focus())
      } catch {
        // Swallowed on purpose: see above.
      }
    })
  }, [hub, on, t])
}
