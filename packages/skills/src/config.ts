/** The plugin's configuration (the CLI's `skills` config section) and its defaults. */
import { z } from 'zod'
import { DEFAULT_MAX_IN_USE_BYTES } from './in-use-delivery.ts'

/** Schema of the `skills` section. */
export const SkillsSectionSchema = z.strictObject({
  enabled: z.boolean().optional().describe('discover skills, send the catalog and offer the skill tool; default true'),
  maxCatalogBytes: z.number().int().min(0).optional().describe('UTF-8 bytes of catalog lines in effect at once; skills beyond it are named in a notice; default 8192'),
  maxSkillBytes: z.number().int().positive().optional().describe('largest SKILL.md or command file read, in bytes; default 262144'),
  maxListedFiles: z.number().int().positive().optional().describe('files of a skill folder the skill tool lists; default 100'),
  maxInUseBytes: z.number().int().min(0).optional().describe('UTF-8 bytes of instructions of skills in use that come back after a compaction; skills beyond it are named; default 16384'),
})

/** A validated section. */
export type SkillsSection = z.infer<typeof SkillsSectionSchema>

/** The plugin's config: the section plus the home (programmatic compositions). */
export const Config = SkillsSectionSchema.extend({ dshHome: z.string().optional() })

/** Config with defaults applied. */
export interface ResolvedSkillsConfig {
  readonly enabled: boolean
  readonly maxCatalogBytes: number
  readonly maxSkillBytes: number
  readonly maxListedFiles: number
  readonly maxInUseBytes: number
  readonly dshHome?: string | undefined
}

/** Validates raw options and applies the defaults. Throws a zod error for invalid input. */
export function resolveSkillsConfig(input: unknown): ResolvedSkillsConfig {
  const parsed = Config.parse(input ?? {})
  return { enabled: parsed.enabled ?? true, maxCatalogBytes: parsed.maxCatalogBytes ?? 8192, maxSkillBytes: parsed.maxSkillBytes ?? 256 * 1024, maxListedFiles: parsed.maxListedFiles ?? 100, maxInUseBytes: parsed.maxInUseBytes ?? DEFAULT_MAX_IN_USE_BYTES, dshHome: parsed.dshHome }
}
