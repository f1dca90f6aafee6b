/**
 * Configuration: the zod schema validated at mount, and `resolveConfig()`, the one place that
 * turns raw options into the resolved settings every other module reads (absolute home, display
 * form of the user-global path, filtered candidate lists, the enabled switch, the identity).
 */
import { z } from 'zod'
import { dshHomeDisplay, resolveDshHome } from '@dsh/runtime'
import { filterCandidateNames } from './candidate-names.ts'

/** Mount options of the plugin (validated by the plugin host). */
export const Config = z.object({
  /** `$DSH_HOME`; `~`, `~/…` and `~\…` expand against the OS home. Default: `$DSH_HOME`, then `~/.dsh`. */
  dshHome: z.string().optional(),
  /** Names whose presence (file or directory) marks the project root. */
  projectRootMarkers: z.array(z.string()).default(['.git']),
  /** UTF-8 byte cap of one rendered message; non-positive or non-finite disables the plugin. */
  maxBytes: z.custom<number>((value) => typeof value === 'number', { message: 'maxBytes is required and must be a number' }),
  /**
   * Decision D7: when a message does not fit `maxBytes`, every file longer than this share of it is
   * first cut to that share; 1 keeps the seed's rule (broadest dropped first, most specific cut last).
   */
  maxFileShare: z.number().gt(0).lte(1).default(0.5),
  /** Per-file cap; larger files are unavailable (never truncated by the reader). */
  maxSourceBytes: z.number().int().positive().default(1_048_576),
  /** Per-directory candidates in precedence order (`AGENTS.override.md`: a local replacement of the directory's `AGENTS.md`). */
  instructionFileCandidates: z.array(z.string()).default(['AGENTS.override.md', 'AGENTS.md', 'CLAUDE.md']),
  /** Additive same-directory overlays, loaded after the base file. `[]` disables overlays. */
  localInstructionFileCandidates: z.array(z.string()).default(['AGENTS.local.md', 'CLAUDE.local.md']),
  /** `first`: the first existing candidate wins; `all`: every distinct candidate loads. */
  candidatePolicy: z.enum(['first', 'all']).default('first'),
  /** Follow a final-component symlink (false: a linked candidate is refused). */
  followSymlinks: z.boolean().default(true),
  /** `trusted-roots`: a followed link must stay inside the trusted roots. */
  instructionReadPolicy: z.enum(['trusted-roots', 'follow-anywhere']).default('trusted-roots'),
  /** Skip candidate probes in directories whose own version is unchanged. Disable on unreliable-mtime filesystems. */
  directoryVersions: z.boolean().default(true),
  /**
   * Racy-timestamp window: a cached version is trusted once its timestamp (`changedAtMs`) is this
   * much older than an observation, or, from providers without timestamps, once re-confirmed this
   * long after it was first seen. Must exceed the filesystem's timestamp granularity (raise it on
   * coarse-mtime filesystems, e.g. 2500 for FAT's 2 s).
   */
  versionSettleMs: z.number().nonnegative().default(20),
})

/** Raw options as a composition passes them. */
export type ConfigInput = z.input<typeof Config>

/** Settings after defaults, filtering and home resolution. */
export interface ResolvedConfig {
  /** False when `maxBytes` is non-positive or non-finite: nothing is probed, read or injected. */
  readonly enabled: boolean
  /** Absolute `$DSH_HOME`. */
  readonly dshHome: string
  /** Model-visible path of the user-global file. */
  readonly userGlobalDisplay: string
  readonly projectRootMarkers: readonly string[]
  readonly maxBytes: number
  /** Share of `maxBytes` one file may take when a message does not fit (decision D7). */
  readonly maxFileShare: number
  readonly maxSourceBytes: number
  readonly instructionFileCandidates: readonly string[]
  readonly localInstructionFileCandidates: readonly string[]
  readonly candidatePolicy: 'first' | 'all'
  readonly followSymlinks: boolean
  readonly instructionReadPolicy: 'trusted-roots' | 'follow-anywhere'
  readonly directoryVersions: boolean
  readonly versionSettleMs: number
}

/** Where the home comes from when not configured. */
export interface ResolveEnvironment {
  /** Environment (reads `DSH_HOME`). */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** OS home override (tests). */
  readonly home?: string
}

/** Validates raw options and resolves them. Throws a zod error for invalid input. */
export function resolveConfig(input: ConfigInput, environment: ResolveEnvironment = {}): ResolvedConfig {
  const parsed = Config.parse(input)
  const env = environment.env ?? process.env
  const configured = parsed.dshHome?.replace(/^~\\/u, '~/')
  const homeOptions = environment.home === undefined ? {} : { home: environment.home }
  const dshHome = resolveDshHome({ configured, env, ...homeOptions })
  const display = dshHomeDisplay(dshHome, environment.home)
  return {
    enabled: parsed.maxBytes > 0 && Number.isFinite(parsed.maxBytes),
    dshHome,
    userGlobalDisplay: `${display}/AGENTS.md`,
    projectRootMarkers: parsed.projectRootMarkers.filter((marker) => marker.trim() !== ''),
    maxBytes: parsed.maxBytes,
    maxFileShare: parsed.maxFileShare,
    maxSourceBytes: parsed.maxSourceBytes,
    instructionFileCandidates: filterCandidateNames(parsed.instructionFileCandidates),
    localInstructionFileCandidates: filterCandidateNames(parsed.localInstructionFileCandidates),
    candidatePolicy: parsed.candidatePolicy,
    followSymlinks: parsed.followSymlinks,
    instructionReadPolicy: parsed.instructionReadPolicy,
    directoryVersions: parsed.directoryVersions,
    versionSettleMs: parsed.versionSettleMs,
  }
}

/**
 * Baseline identity: normalised discovery, precedence, root and budget semantics. A visible
 * baseline whose identity differs is superseded. The home is deliberately not part of it: a
 * changed home shows up as an ordinary change of the user-global scope.
 */
export function baselineIdentity(config: ResolvedConfig, projectRootFromCwd: string): string {
  return JSON.stringify({
    projectRoot: projectRootFromCwd,
    projectRootMarkers: config.projectRootMarkers,
    maxBytes: config.maxBytes,
    maxFileShare: config.maxFileShare,
    maxSourceBytes: config.maxSourceBytes,
    instructionFileCandidates: config.instructionFileCandidates,
    localInstructionFileCandidates: config.localInstructionFileCandidates,
    candidatePolicy: config.candidatePolicy,
    followSymlinks: config.followSymlinks,
    instructionReadPolicy: config.instructionReadPolicy,
  })
}

/**
 * The project root recorded in a baseline identity (relative to the cwd, `''` when they are the
 * same); `undefined` when the identity is missing or not one this plugin wrote.
 */
export function identityProjectRoot(identity: string | undefined): string | undefined {
  if (identity === undefined) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(identity)
  } catch {
    // A persisted identity that is not JSON was not written by this plugin: its root is unknown.
    return undefined
  }
  const root: unknown = typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, 'projectRoot') : undefined
  return typeof root === 'string' ? root : undefined
}
