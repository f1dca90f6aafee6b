/**
 * Configuration: the zod schema validated at mount (the CLI's `multiRootWorkspace` section plus
 * the discovery settings it shares with workspace-context) and `resolveConfig()`, the one place
 * that turns raw options into resolved settings.
 */
import { z } from 'zod'
import { Config as InstructionConfig, resolveConfig as resolveInstructionConfig, type ResolvedConfig as InstructionSettings } from '@dsh/workspace-context'

/** Defaults of the caps (seeds/002: degrade with one warning when reached). */
export const DEFAULT_MAX_BYTES = 65_536
export const DEFAULT_MAX_DELIVERED_SCOPES = 512
export const DEFAULT_MAX_PENDING_TOUCHES = 64
export const DEFAULT_MAX_PENDING_CALLS = 128

const shape = InstructionConfig.shape

/** The fields of a config file's `multiRootWorkspace` section (unknown keys are errors). */
export const SectionSchema = z.strictObject({
  enabled: z.boolean().default(true).describe('Mount the plugin (additional roots, their grants and instructions)'),
  maxBytes: z.number().default(DEFAULT_MAX_BYTES).describe('UTF-8 bytes of additional-root instructions per step, shared by all roots; 0 or less sends no instruction files'),
  maxDeliveredScopes: z.number().int().positive().default(DEFAULT_MAX_DELIVERED_SCOPES).describe('Instruction files delivered per session before nested delivery stops'),
  maxPendingTouches: z.number().int().positive().default(DEFAULT_MAX_PENDING_TOUCHES).describe('Touched paths waiting for the next step, per session'),
  maxPendingCalls: z.number().int().positive().default(DEFAULT_MAX_PENDING_CALLS).describe('read/write/edit calls waiting for their result, per session'),
})

/** Mount options: the section plus the home and the discovery settings shared with workspace-context. */
export const Config = SectionSchema.extend({
  /** `$DSH_HOME` (the registry lives there); default: the host's `dshHome` context value. */
  dshHome: z.string().optional(),
  instructionFileCandidates: shape.instructionFileCandidates,
  localInstructionFileCandidates: shape.localInstructionFileCandidates,
  candidatePolicy: shape.candidatePolicy,
  followSymlinks: shape.followSymlinks,
  maxSourceBytes: shape.maxSourceBytes,
  directoryVersions: shape.directoryVersions,
  versionSettleMs: shape.versionSettleMs,
})

/** Raw options as a composition passes them. */
export type ConfigInput = z.input<typeof Config>

/** Settings after defaults. */
export interface ResolvedConfig {
  readonly enabled: boolean
  /** Explicit home, if configured. */
  readonly dshHome: string | undefined
  /** Shared budget; non-positive or non-finite sends no instruction files. */
  readonly maxBytes: number
  readonly maxDeliveredScopes: number
  readonly maxPendingTouches: number
  readonly maxPendingCalls: number
  /** Discovery settings in workspace-context's resolved form (its budget field is unused). */
  readonly discovery: InstructionSettings
}

/** Validates raw options and resolves them. Throws a zod error for invalid input. */
export function resolveConfig(input: ConfigInput): ResolvedConfig {
  const parsed = Config.parse(input)
  const discovery = resolveInstructionConfig({
    maxBytes: 1,
    instructionFileCandidates: parsed.instructionFileCandidates,
    localInstructionFileCandidates: parsed.localInstructionFileCandidates,
    candidatePolicy: parsed.candidatePolicy,
    followSymlinks: parsed.followSymlinks,
    maxSourceBytes: parsed.maxSourceBytes,
    directoryVersions: parsed.directoryVersions,
    versionSettleMs: parsed.versionSettleMs,
    instructionReadPolicy: 'trusted-roots',
    ...(parsed.dshHome === undefined ? {} : { dshHome: parsed.dshHome }),
  })
  return {
    enabled: parsed.enabled,
    dshHome: parsed.dshHome,
    maxBytes: parsed.maxBytes,
    maxDeliveredScopes: parsed.maxDeliveredScopes,
    maxPendingTouches: parsed.maxPendingTouches,
    maxPendingCalls: parsed.maxPendingCalls,
    discovery,
  }
}
