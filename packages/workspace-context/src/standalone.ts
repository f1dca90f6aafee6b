/**
 * Setup shared by the session-free library functions (`inspectContext`, `explainPath`): resolve
 * the config, canonicalise the cwd and home, find the project root, and build a discovery plan.
 */
import type { FileSystemPort } from '@dsh/contracts'
import { resolveConfig, type ConfigInput, type ResolvedConfig, type ResolveEnvironment } from './config.ts'
import type { DiscoveryPlan, PassOptions } from './discovery.ts'
import { createInstance, type InstanceState } from './instance.ts'

/** Common options of the library functions. */
export interface StandaloneOptions {
  /** Working directory (absolute). */
  readonly cwd: string
  /** Raw config (as the plugin would be mounted with) or an already resolved one. */
  readonly config: ConfigInput | ResolvedConfig
  /** Overrides the home of `config`. */
  readonly dshHome?: string
  readonly fs: FileSystemPort
  readonly signal?: AbortSignal
  readonly environment?: ResolveEnvironment
  /** Additional trusted roots (registered workspace roots). */
  readonly extraTrustedRoots?: readonly string[]
}

/** What the library functions work with. */
export interface Standalone {
  readonly config: ResolvedConfig
  readonly instance: InstanceState
  readonly plan: DiscoveryPlan
  readonly pass: PassOptions
}

const isResolved = (config: ConfigInput | ResolvedConfig): config is ResolvedConfig => 'enabled' in config && 'userGlobalDisplay' in config

/** Prepares a session-free discovery (no memo: every candidate is probed and read). */
export async function prepareStandalone(options: StandaloneOptions): Promise<Standalone> {
  const base = isResolved(options.config) ? options.config : resolveConfig(options.dshHome === undefined ? options.config : { ...options.config, dshHome: options.dshHome }, options.environment)
  const config = isResolved(options.config) && options.dshHome !== undefined ? resolveConfig({ ...configInputOf(base), dshHome: options.dshHome }, options.environment) : base
  const instance = await createInstance(options.fs, config, options.cwd, () => options.extraTrustedRoots ?? [], options.signal)
  return {
    config,
    instance,
    plan: { config, root: instance.project.root, dshHome: instance.dshHome, trustedRoots: instance.trustedRoots },
    pass: { fs: options.fs, signal: options.signal, memo: undefined, directoryVersions: false, now: Date.now, probeAll: true },
  }
}

function configInputOf(config: ResolvedConfig): ConfigInput {
  return {
    maxBytes: config.maxBytes,
    maxFileShare: config.maxFileShare,
    maxSourceBytes: config.maxSourceBytes,
    projectRootMarkers: [...config.projectRootMarkers],
    instructionFileCandidates: [...config.instructionFileCandidates],
    localInstructionFileCandidates: [...config.localInstructionFileCandidates],
    candidatePolicy: config.candidatePolicy,
    followSymlinks: config.followSymlinks,
    instructionReadPolicy: config.instructionReadPolicy,
    directoryVersions: config.directoryVersions,
    versionSettleMs: config.versionSettleMs,
  }
}
