/**
 * Runtime switches: strict on-topic mode, the five advisory notices and the read-only rule for
 * operator documents. They are not among the ten settings fields; they live in their own settings
 * namespace, `maintainer-doc-guard-switches`, so the chat, `dsh docs switches` in another terminal
 * and the web panel all change the same values and a running session picks them up at once (the
 * reference kept them per process and lost them on restart). Without a settings service they are
 * kept in memory for the life of the process.
 */
import { z } from 'zod'
import type { SettingsScope } from '@dsh/settings'
import type { ResolvedConfig } from './resolve-config.ts'

/** Settings namespace of the switches. */
export const SWITCHES_NAMESPACE = 'maintainer-doc-guard-switches'

/** Schema of the switches. */
export const SwitchesSchema = z.strictObject({
  strictOnTopic: z.boolean().describe('Strict on-topic mode: strict answer contract and a model judge when a turn ends'),
  ledger: z.boolean().describe('Ledger hits'),
  content: z.boolean().describe('Landing check for an edit that deletes numbers'),
  verify: z.boolean().describe('Completion-standard reminder after a code artifact is written'),
  induce: z.boolean().describe('Automatic ledger lines after a failure followed by success'),
  child: z.boolean().describe('Reminder that a subagent report is input to verify'),
  operatorDocsReadOnly: z.boolean().describe('plan.md and conventions.md are read-only to the model'),
})

/** Values of the switches. */
export type SwitchValues = z.infer<typeof SwitchesSchema>

/** Switch names in display order. */
export const SWITCH_NAMES = ['strictOnTopic', 'ledger', 'content', 'verify', 'induce', 'child', 'operatorDocsReadOnly'] as const satisfies readonly (keyof SwitchValues)[]

/** The switches as the composition config sets them. */
export function switchBase(config: ResolvedConfig): SwitchValues {
  return { strictOnTopic: config.strictOnTopic, ...config.notices, operatorDocsReadOnly: config.gate.operatorDocsReadOnly }
}

/** Live switch values: a settings scope when one is attached, else memory. */
export class Switches {
  #memory: SwitchValues
  #scope: SettingsScope<SwitchValues> | undefined

  constructor(base: SwitchValues) {
    this.#memory = base
  }

  /** Current values. */
  get(): SwitchValues {
    return this.#scope?.get() ?? this.#memory
  }

  /** Backs the switches with a settings scope until the returned function detaches it. */
  attach(scope: SettingsScope<SwitchValues>): () => void {
    this.#scope = scope
    return () => {
      if (this.#scope === scope) {
        this.#memory = scope.get()
        this.#scope = undefined
      }
    }
  }

  /** Changes some switches; persisted when a settings scope is attached. */
  async set(patch: Partial<SwitchValues>): Promise<SwitchValues> {
    if (this.#scope !== undefined) return this.#scope.update(patch)
    this.#memory = SwitchesSchema.parse({ ...this.#memory, ...patch })
    return this.#memory
  }
}
