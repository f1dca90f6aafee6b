/**
 * Renders the objective anchor: a heading, the instruction quoted verbatim as a blockquote (cut
 * to `anchor.maxChars`), the intro, the three-step precedence rule and the closing line; the child
 * wording inside a delegated child; the strict answer contract while strict on-topic mode is on.
 * The result is defused for the prompt's `{{…}}` interpolation.
 */
import { ANCHOR_CLOSING, CHILD_CLOSING, CLIPPED_MARKER, PRECEDENCE_HEADING, STRICT_CONTRACT } from './anchor-texts.ts'
import { clip, defuseBraces } from './defuse.ts'
import type { ResolvedConfig } from './resolve-config.ts'

/** Inputs of {@link renderAnchor}. */
export interface AnchorInput {
  readonly config: ResolvedConfig['anchor']
  /** The instruction (or delegation) to quote. */
  readonly quote: string
  /** Render the child wording. */
  readonly child: boolean
  /** Append the strict answer contract. */
  readonly strict: boolean
}

/** The instruction as a markdown blockquote. */
export function blockquote(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.trim() === '' ? '>' : `> ${line}`))
    .join('\n')
}

/** The anchor text. */
export function renderAnchor(input: AnchorInput): string {
  const { config, child } = input
  const quoted = clip(input.quote, config.maxChars, CLIPPED_MARKER).text
  const priorities = (child ? config.childPriorities : config.priorities).map((item, index) => `${index + 1}. ${item}`)
  const parts = [
    child ? config.childTitle : config.title,
    blockquote(quoted),
    child ? config.childIntro : config.intro,
    [PRECEDENCE_HEADING, ...priorities].join('\n'),
    child ? CHILD_CLOSING : ANCHOR_CLOSING,
    ...(input.strict ? [STRICT_CONTRACT] : []),
  ]
  return defuseBraces(parts.join('\n\n'))
}
