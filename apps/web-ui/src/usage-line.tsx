/** The session's usage under the chat, as the chat's status line has it: context in use of the window, cache-hit share, cost (when prices are known). */
import type { JSX } from 'preact'
import type { UsageView } from './api-types.ts'
import { useStrings } from './i18n.ts'

/** `12.3k`, `850`, `1.2M`. */
export function compactCount(count: number): string {
  if (count < 1000) return String(count)
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`
  return `${(count / 1_000_000).toFixed(1)}M`
}

export function UsageLine(props: { readonly usage: UsageView }): JSX.Element | null {
  const t = useStrings()
  const { contextTokens, contextWindow, cacheHitShare, cost } = props.usage
  if (contextTokens === undefined && cacheHitShare === undefined) return null
  const parts: string[] = []
  if (contextTokens !== undefined) parts.push(contextWindow > 0 ? t.contextUse(compactCount(contextTokens), compactCount(contextWindow), Math.round((contextTokens / contextWindow) * 100)) : t.contextTokens(compactCount(contextTokens)))
  if (cacheHitShare !== undefined) parts.push(t.cacheHits(Math.round(cacheHitShare * 100)))
  if (cost !== undefined) parts.push(t.cost(`${cost.currency}${cost.amount < 1 ? cost.amount.toFixed(4) : cost.amount.toFixed(2)}`))
  return (
    <p class="usage-line" aria-label={t.usage}>
      {parts.join(' · ')}
    </p>
  )
}
