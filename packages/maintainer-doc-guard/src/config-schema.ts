/**
 * The composition config of maintainer-doc-guard (the `maintainerDocGuard` key of a dsh config
 * file, or the plugin's mount options): every option of the seed and of the reference plugin,
 * all optional. Unknown keys are errors; ranges match the live settings fields so a valid config
 * is always a valid settings base. Defaults are applied by `resolveConfig`, never here.
 */
import { z } from 'zod'

/** Ranges shared by the config and the ten live settings fields. */
export const ranges = {
  maxDeniesPerTarget: { min: 0, max: 20 },
  maxBlocksPerTurn: { min: 0, max: 10 },
  minChars: { min: 0, max: 400 },
  grace: { min: 0, max: 10 },
  afterSteps: { min: 0, max: 200 },
} as const

const int = (range: { readonly min: number; readonly max: number }) => z.number().int().min(range.min).max(range.max)
const names = z.array(z.string().min(1))
const flag = z.boolean().optional()
/** Subagent reach: `true` or `'children'` opt children in; anything else keeps the default (top level only). */
const reach = z.union([z.boolean(), z.string()]).optional().describe('true or "children" also reaches delegated children; any other value keeps it at the top level')

const injectDocs = z.strictObject({
  enabled: flag.describe('Inject plan and conventions content into the reminder section (default true)'),
  docs: names.optional().describe('Documents injected in full, matched by path tail (default plan.md, conventions.md)'),
  title: z.string().optional().describe('Heading of the injected block'),
  maxCharsPerDoc: z.number().int().min(0).optional().describe('Characters kept of one document (default 2000)'),
  maxCharsTotal: z.number().int().min(0).optional().describe('Characters kept of all injected documents together (default 6000)'),
})

const anchor = z.strictObject({
  enabled: flag.describe('Quote the user\'s latest instruction with the precedence rule (default true)'),
  inSubagents: reach,
  delivery: z
    .enum(['history', 'section', 'message'])
    .optional()
    .describe('history: a durable message when the instruction changes (default, keeps the prompt cache); section: a system-prompt section; message: a notice on the tool-call path, once per distinct text'),
  order: z.number().int().optional().describe('Section order (default 10150); read once at mount'),
  maxChars: z.number().int().min(1).optional().describe('Characters of the quoted instruction (default 800)'),
  title: z.string().optional(),
  intro: z.string().optional(),
  priorities: names.optional(),
  childTitle: z.string().optional(),
  childIntro: z.string().optional(),
  childPriorities: names.optional(),
})

const gate = z.strictObject({
  enabled: flag.describe('Precedent gate on writes into guarded areas (default true)'),
  dryRun: flag.describe('Count would-be denials without denying (default false)'),
  tools: names.optional().describe('Tools judged by the precedent gate (default write, edit)'),
  guardedGlobs: names.optional().describe('Substrings of the absolute path that mark a guarded area'),
  exemptGlobs: names.optional().describe('Substrings that exempt a path from the gate'),
  maxDeniesPerTarget: int(ranges.maxDeniesPerTarget).optional().describe('Denials per target before the gate gives up (default 2)'),
  maxCandidates: z.number().int().min(0).max(20).optional().describe('Precedents listed in a denial (default 3)'),
  scanLevels: z.number().int().min(0).max(16).optional().describe('Directory levels walked for precedents (default 4)'),
  entriesPerLevel: z.number().int().min(1).max(10_000).optional().describe('Directory entries examined per level (default 400)'),
  operatorDocsReadOnly: flag.describe('The model may not write plan.md or conventions.md (default true; also a runtime switch)'),
})

const intent = z.strictObject({
  enabled: flag.describe('Intent gate: side effects need a stated purpose (default true)'),
  dryRun: flag,
  tools: names.optional().describe('Side-effecting tools judged (default write, edit, bash, pwsh)'),
  maxBlocksPerTurn: int(ranges.maxBlocksPerTurn).optional().describe('Denials per turn before the gate gives up (default 1)'),
  minChars: int(ranges.minChars).optional().describe('Prose characters that count as an explanation (default 24)'),
})

const nudge = z.strictObject({
  enabled: flag.describe('Remind before denying (default true)'),
  dryRun: flag,
  grace: int(ranges.grace).optional().describe('Reminders before the first denial (default 1; 0 denies the first offence)'),
  maxPerTurn: z.number().int().min(0).max(50).optional().describe('Reminders per turn, drift check included (default 3)'),
  afterSteps: int(ranges.afterSteps).optional().describe('Steps since the user last spoke before the drift check (default 12; 0 disables it)'),
})

const docsNotice = z.strictObject({
  enabled: flag.describe('Remind about documents with content this session has not read (default true)'),
  dryRun: flag,
})

const notices = z.strictObject({
  ledger: flag.describe('Ledger hits (default true)'),
  content: flag.describe('Landing check for an edit that deletes numbers (default true)'),
  verify: flag.describe('Completion-standard reminder after a code artifact is written (default true)'),
  induce: flag.describe('Append a ledger line after a failure followed by success (default true)'),
  child: flag.describe('Reminder that a subagent\'s report is input to verify (default true)'),
})

/** Mount options / config-file section. */
export const Config = z.strictObject({
  enabled: flag.describe('Turns the guard on (the dsh composition mounts it only when true)'),
  docs: names.optional().describe('Maintainer documents (relative to the documents folder, or absolute)'),
  docsDir: z.string().min(1).optional().describe('Documents folder under the working directory (default .dsh-maintainer-doc-guard)'),
  onlyWhenPresent: flag.describe('Drop the reminder section when no document exists (default false)'),
  inSubagents: reach,
  includeSubagents: flag.describe('Legacy spelling of inSubagents: true'),
  order: z.number().int().optional().describe('Order of the reminder section (default 100)'),
  placement: z.enum(['history', 'system']).optional().describe('history: the reminder is a durable message, re-delivered when it changes (default, keeps the prompt cache); system: a system-prompt section'),
  walkUp: z.number().int().min(0).max(64).optional().describe('Levels searched upwards for the project root (default 6)'),
  projectMarkers: names.optional().describe('Names that mark the project root (default .git)'),
  title: z.string().optional().describe('Heading of the reminder section'),
  intro: z.string().optional().describe('Intro of the reminder section'),
  strictOnTopic: flag.describe('Start with strict on-topic mode on (default false; also a runtime switch)'),
  injectDocs: injectDocs.optional(),
  anchor: anchor.optional(),
  gate: gate.optional(),
  intent: intent.optional(),
  nudge: nudge.optional(),
  docsNotice: docsNotice.optional(),
  notices: notices.optional(),
})

/** Raw options as a composition passes them. */
export type ConfigInput = z.input<typeof Config>
