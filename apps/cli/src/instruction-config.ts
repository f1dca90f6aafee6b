/**
 * The CLI's composition of the workspace-context plugin config: the config file's
 * `workspaceContext` section over the product defaults (a 65,536-byte budget), with the resolved
 * `$DSH_HOME` so `--dsh-home` also moves the user-global instruction file.
 */
import { z } from 'zod'
import { Config, type ConfigInput } from '@dsh/workspace-context'

/** The product's instruction budget per rendered message, in bytes. */
export const defaultInstructionBudget = 65_536

const { dshHome: _home, maxBytes: _budget, ...fields } = Config.shape

/** Schema of the config file's `workspaceContext` section (unknown keys are errors). */
export const workspaceContextSectionSchema = z.strictObject({
  ...fields,
  maxBytes: z.number().optional().describe('Bytes per rendered instruction message; 0 or less disables instruction files'),
})

/** The section as written in the file. */
export type WorkspaceContextSection = z.input<typeof workspaceContextSectionSchema>

/** Mount config of the plugin. */
export function instructionConfig(section: WorkspaceContextSection | undefined, dshHome: string): ConfigInput {
  return { ...section, maxBytes: section?.maxBytes ?? defaultInstructionBudget, dshHome }
}
