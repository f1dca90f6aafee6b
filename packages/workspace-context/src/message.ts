/**
 * Builds the durable, sourced user message that carries rendered instructions. The typed source
 * is the only state channel; the text carries no markers.
 */
import { randomUUID } from 'node:crypto'
import type { InstructionChange, UserMessage, WorkspaceInstructionsSource } from '@dsh/contracts'

/** Name this plugin writes into `source.plugin`. */
export const PLUGIN_NAME = 'workspace-context'

/** Options of an instruction message. */
export interface InstructionMessageInput {
  readonly plugin: string
  readonly text: string
  readonly changes: readonly InstructionChange[]
  /** Set for a complete baseline, with its identity. */
  readonly baselineIdentity?: string | undefined
  /**
   * For a change batch: the identity of the settings it was reconciled under, persisted as
   * `baselineIdentity` without `baseline` (so a later pass knows whether the settings changed).
   */
  readonly identity?: string | undefined
}

/** A new instruction message with a fresh id. */
export function instructionMessage(input: InstructionMessageInput): UserMessage {
  const source: WorkspaceInstructionsSource = {
    kind: 'workspace-instructions',
    version: 1,
    plugin: input.plugin,
    ...(input.baselineIdentity === undefined ? (input.identity === undefined ? {} : { baselineIdentity: input.identity }) : { baseline: true, baselineIdentity: input.baselineIdentity }),
    changes: input.changes,
  }
  return { id: randomUUID(), role: 'user', content: [{ type: 'text', text: input.text }], source }
}
