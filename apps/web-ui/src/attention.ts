/**
 * The page's signals for questions waiting in any session: the tab title starts with the count and
 * "needs your answer", and the tab icon gets an orange dot, until every question is answered.
 */
import { useEffect } from 'preact/hooks'
import type { Strings } from './i18n.ts'

const icon = (dot: boolean): string =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#2458d3"/><path d="M8 10l7 6-7 6" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/><path d="M17 23h8" stroke="#fff" stroke-width="3" stroke-linecap="round"/>${dot ? '<circle cx="25" cy="8" r="7" fill="#f08c00" stroke="#fff" stroke-width="2"/>' : ''}</svg>`,
  )}`

/** Keeps the title and icon in step with `waiting`, the number of sessions with a question. */
export function useAttention(waiting: number, t: Strings): void {
  useEffect(() => {
    document.title = waiting > 0 ? t.attentionTitle(waiting) : t.appTitle
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]')
    if (link === null) return
    link.href = waiting > 0 ? icon(true) : '/assets/favicon.svg'
    link.type = 'image/svg+xml'
  }, [waiting, t])
}
