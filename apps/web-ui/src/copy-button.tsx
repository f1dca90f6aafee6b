/**
 * A button that copies a text to the clipboard and says "Copied" for a moment (or that it could
 * not). Its visible word is drawn by CSS from `data-label` (its name is `aria-label`), so copying
 * or reading a message's text never picks up the word "Copy".
 */
import type { JSX } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { useStrings } from './i18n.ts'

type Shown = 'idle' | 'copied' | 'failed'

export function CopyButton(props: { readonly text: () => string; readonly label: string }): JSX.Element {
  const t = useStrings()
  const [shown, setShown] = useState<Shown>('idle')
  useEffect(() => {
    if (shown === 'idle') return undefined
    const timer = setTimeout(() => setShown('idle'), 1500)
    return () => clearTimeout(timer)
  }, [shown])
  const copy = (): void => {
    navigator.clipboard.writeText(props.text()).then(
      () => setShown('copied'),
      () => setShown('failed'), // the browser refused (no permission, no focus): the button says so
    )
  }
  return (
    <button type="button" class="copy" aria-label={props.label} data-label={shown === 'copied' ? t.copied : shown === 'failed' ? t.copyFailed : t.copy} onClick={copy} />
  )
}
