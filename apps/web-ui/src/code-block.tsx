/**
 * A fenced code block: a head with the language and a copy button, then the code. Highlighting is
 * done once the block is closed, in idle time, so a block still streaming (or a long history being
 * loaded) costs only its plain text.
 */
import type { JSX } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { CopyButton } from './copy-button.tsx'
import { highlight } from './highlight.tsx'
import { useStrings } from './i18n.ts'

/** Runs `work` when the browser is idle (or soon, where it has no idle callbacks); returns the canceller. */
function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(work, { timeout: 1000 })
    return () => cancelIdleCallback(handle)
  }
  const timer = setTimeout(work, 50)
  return () => clearTimeout(timer)
}

export function CodeBlock(props: { readonly code: string; readonly language: string; readonly closed: boolean }): JSX.Element {
  const t = useStrings()
  const [spans, setSpans] = useState<{ readonly code: string; readonly spans: JSX.Element[] } | undefined>()
  const { code, language, closed } = props
  useEffect(() => (closed ? whenIdle(() => setSpans({ code, spans: highlight(code, language) })) : undefined), [code, language, closed])
  const label = language === '' ? t.plainText : language
  return (
    <div class="code-block">
      <div class="code-head">
        <span class="code-language" data-label={label} />
        <CopyButton text={() => code} label={t.copyCode(label)} />
      </div>
      <pre class="code" data-language={language || undefined}>
        <code>{spans !== undefined && spans.code === code ? spans.spans : code}</code>
      </pre>
    </div>
  )
}
