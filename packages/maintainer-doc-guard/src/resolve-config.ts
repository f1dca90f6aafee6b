/**
 * `resolveConfig()`: the one place that turns raw options into the resolved config every other
 * module reads. Normalisation is defensive, like the reference plugin: an empty list falls back to
 * its default, a subagent reach other than `true` / `'children'` keeps the default (top level
 * only, so a typo never widens a contribution's reach), and every absent field gets its default.
 */
import { ANCHOR_INTRO, ANCHOR_PRIORITIES, ANCHOR_TITLE, CHILD_INTRO, CHILD_PRIORITIES, CHILD_TITLE } from './anchor-texts.ts'
import { Config, type ConfigInput } from './config-schema.ts'
import { INJECT_TITLE, REMINDER_INTRO, REMINDER_TITLE } from './reminder-texts.ts'

/** Default documents (paths relative to the documents folder). */
export const DEFAULT_DOCS: readonly string[] = ['plan.md', 'conventions.md', 'stack.md', 'state.md', 'maintainer/README.md', 'lessons.md']
/** Default documents folder. */
export const DEFAULT_DOCS_DIR = '.dsh-maintainer-doc-guard'
/** Default guarded areas (plain substrings of the absolute POSIX path). */
export const DEFAULT_GUARDED_GLOBS: readonly string[] = ['.dsh/profiles/', '.dsh/skills/', '.dsh/.agent-presets/', 'node_modules/@deepseek-ai/']

/** The resolved config (see the schema's field descriptions for meanings). */
export interface ResolvedConfig {
  readonly enabled: boolean
  readonly docs: readonly string[]
  readonly docsDir: string
  readonly onlyWhenPresent: boolean
  readonly inSubagents: boolean
  readonly order: number
  /** Where the reminder goes: a durable message in the history (default) or a system-prompt section. */
  readonly placement: 'history' | 'system'
  readonly walkUp: number
  readonly projectMarkers: readonly string[]
  readonly title: string
  readonly intro: string
  readonly strictOnTopic: boolean
  readonly injectDocs: { readonly enabled: boolean; readonly docs: readonly string[]; readonly title: string; readonly maxCharsPerDoc: number; readonly maxCharsTotal: number }
  readonly anchor: {
    readonly enabled: boolean
    readonly inSubagents: boolean
    readonly delivery: 'history' | 'section' | 'message'
    readonly order: number
    readonly maxChars: number
    readonly title: string
    readonly intro: string
    readonly priorities: readonly string[]
    readonly childTitle: string
    readonly childIntro: string
    readonly childPriorities: readonly string[]
  }
  readonly gate: {
    readonly enabled: boolean
    readonly dryRun: boolean
    readonly tools: readonly string[]
    readonly guardedGlobs: readonly string[]
    readonly exemptGlobs: readonly string[]
    readonly maxDeniesPerTarget: number
    readonly maxCandidates: number
    readonly scanLevels: number
    readonly entriesPerLevel: number
    readonly operatorDocsReadOnly: boolean
  }
  readonly intent: { readonly enabled: boolean; readonly dryRun: boolean; readonly tools: readonly string[]; readonly maxBlocksPerTurn: number; readonly minChars: number }
  readonly nudge: { readonly enabled: boolean; readonly dryRun: boolean; readonly grace: number; readonly maxPerTurn: number; readonly afterSteps: number }
  readonly docsNotice: { readonly enabled: boolean; readonly dryRun: boolean }
  readonly notices: { readonly ledger: boolean; readonly content: boolean; readonly verify: boolean; readonly induce: boolean; readonly child: boolean }
}

/** `true` and `'children'` opt a contribution into children; everything else is the default. */
export function reachesChildren(value: unknown): boolean {
  return value === true || value === 'children'
}

const list = (value: readonly string[] | undefined, fallback: readonly string[]): readonly string[] => (value === undefined || value.length === 0 ? fallback : value)

/** Validates raw options (throws a zod error naming the field) and resolves them. */
export function resolveConfig(input: ConfigInput = {}): ResolvedConfig {
  const raw = Config.parse(input ?? {})
  const anchor = raw.anchor ?? {}
  const gate = raw.gate ?? {}
  const intent = raw.intent ?? {}
  const nudge = raw.nudge ?? {}
  const inject = raw.injectDocs ?? {}
  const notices = raw.notices ?? {}
  return {
    enabled: raw.enabled !== false,
    docs: list(raw.docs, DEFAULT_DOCS),
    docsDir: raw.docsDir ?? DEFAULT_DOCS_DIR,
    onlyWhenPresent: raw.onlyWhenPresent === true,
    inSubagents: reachesChildren(raw.inSubagents) || raw.includeSubagents === true,
    order: raw.order ?? 100,
    placement: raw.placement ?? 'history',
    walkUp: raw.walkUp ?? 6,
    projectMarkers: list(raw.projectMarkers, ['.git']),
    title: raw.title ?? REMINDER_TITLE,
    intro: raw.intro ?? REMINDER_INTRO,
    strictOnTopic: raw.strictOnTopic === true,
    injectDocs: {
      enabled: inject.enabled !== false,
      docs: list(inject.docs, ['plan.md', 'conventions.md']),
      title: inject.title ?? INJECT_TITLE,
      maxCharsPerDoc: inject.maxCharsPerDoc ?? 2000,
      maxCharsTotal: inject.maxCharsTotal ?? 6000,
    },
    anchor: {
      enabled: anchor.enabled !== false,
      inSubagents: reachesChildren(anchor.inSubagents),
      delivery: anchor.delivery ?? 'history',
      order: anchor.order ?? 10_150,
      maxChars: anchor.maxChars ?? 800,
      title: anchor.title ?? ANCHOR_TITLE,
      intro: anchor.intro ?? ANCHOR_INTRO,
      priorities: list(anchor.priorities, ANCHOR_PRIORITIES),
      childTitle: anchor.childTitle ?? CHILD_TITLE,
      childIntro: anchor.childIntro ?? CHILD_INTRO,
      childPriorities: list(anchor.childPriorities, CHILD_PRIORITIES),
    },
    gate: {
      enabled: gate.enabled !== false,
      dryRun: gate.dryRun === true,
      tools: list(gate.tools, ['write', 'edit']),
      guardedGlobs: list(gate.guardedGlobs, DEFAULT_GUARDED_GLOBS),
      exemptGlobs: gate.exemptGlobs ?? [],
      maxDeniesPerTarget: gate.maxDeniesPerTarget ?? 2,
      maxCandidates: gate.maxCandidates ?? 3,
      scanLevels: gate.scanLevels ?? 4,
      entriesPerLevel: gate.entriesPerLevel ?? 400,
      operatorDocsReadOnly: gate.operatorDocsReadOnly !== false,
    },
    intent: {
      enabled: intent.enabled !== false,
      dryRun: intent.dryRun === true,
      tools: list(intent.tools, ['write', 'edit', 'bash', 'pwsh']),
      maxBlocksPerTurn: intent.maxBlocksPerTurn ?? 1,
      minChars: intent.minChars ?? 24,
    },
    nudge: {
      enabled: nudge.enabled !== false,
      dryRun: nudge.dryRun === true,
      grace: nudge.grace ?? 1,
      maxPerTurn: nudge.maxPerTurn ?? 3,
      afterSteps: nudge.afterSteps ?? 12,
    },
    docsNotice: { enabled: raw.docsNotice?.enabled !== false, dryRun: raw.docsNotice?.dryRun === true },
    notices: {
      ledger: notices.ledger !== false,
      content: notices.content !== false,
      verify: notices.verify !== false,
      induce: notices.induce !== false,
      child: notices.child !== false,
    },
  }
}
