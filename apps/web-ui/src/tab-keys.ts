/**
 * Keyboard use of a tablist (WAI-ARIA tabs pattern): only the selected tab is in the Tab order;
 * Left/Right (and Home/End) move to another tab and select it.
 */

/** The `onKeyDown` handler of an element with `role="tablist"`. */
export function onTabKeys(event: KeyboardEvent): void {
  const list = event.currentTarget
  if (!(list instanceof HTMLElement)) return
  const tabs = [...list.querySelectorAll<HTMLElement>('[role="tab"]')]
  const index = tabs.findIndex((tab) => tab === document.activeElement)
  if (index < 0) return
  const next = event.key === 'ArrowRight' ? (index + 1) % tabs.length : event.key === 'ArrowLeft' ? (index - 1 + tabs.length) % tabs.length : event.key === 'Home' ? 0 : event.key === 'End' ? tabs.length - 1 : undefined
  if (next === undefined) return
  event.preventDefault()
  tabs[next]?.focus()
  tabs[next]?.click()
}
