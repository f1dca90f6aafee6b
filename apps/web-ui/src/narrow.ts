/**
 * Whether the page is laid out for a narrow (phone-width) window: under 900 px the sessions list
 * and the side panel are drawers over the chat, so the transcript is the page's one scroll area.
 * Follows the window as it is resized; the same breakpoint as app.css.
 */
import { useEffect, useState } from 'preact/hooks'

const query = '(max-width: 900px)'

export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => matchMedia(query).matches)
  useEffect(() => {
    const list = matchMedia(query)
    const update = (): void => setNarrow(list.matches)
    list.addEventListener('change', update)
    update()
    return () => list.removeEventListener('change', update)
  }, [])
  return narrow
}
