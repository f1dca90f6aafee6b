/**
 * Which document text goes into the reminder section in full: the documents named by
 * `injectDocs.docs` (matched by path tail), in configured order, each cut to `maxCharsPerDoc` and
 * all together to `maxCharsTotal`. A document the total budget has no room left for is listed but
 * not injected.
 */
import { clip } from './defuse.ts'
import { hasTail } from './document-paths.ts'
import type { DocumentProbe, FoundDocument } from './document-probe.ts'
import type { ResolvedConfig } from './resolve-config.ts'

/** One injected document. */
export interface InjectedDocument {
  readonly name: string
  readonly doc: FoundDocument
  /** The text that goes into the prompt (already cut). */
  readonly text: string
  /** True when the text was cut. */
  readonly truncated: boolean
}

/** The injected documents of a probe. */
export function injectionPlan(config: ResolvedConfig['injectDocs'], probes: readonly DocumentProbe[]): InjectedDocument[] {
  if (!config.enabled) return []
  const out: InjectedDocument[] = []
  let left = config.maxCharsTotal
  for (const probe of probes) {
    if (probe.found === undefined || !config.docs.some((tail) => hasTail(probe.name, tail))) continue
    const budget = Math.min(config.maxCharsPerDoc, left)
    if (budget <= 0) continue
    const text = probe.found.text.trim()
    const cut = clip(text, budget, '')
    left -= cut.text.length
    out.push({ name: probe.name, doc: probe.found, text: cut.text, truncated: cut.clipped })
  }
  return out
}
