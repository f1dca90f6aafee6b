/**
 * The cordis plugin: validates its config, provides the `workspaceRoots` service over the registry
 * in `$DSH_HOME` (the config's `dshHome`, else the host's `dshHome` context value), and wires
 * `session/event` (touches) and `agent/pre-step` (instruction delivery). With `enabled: false` it
 * does nothing at all. The filesystem is read lazily, so a composition without one still boots.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { FileSystemPort } from '@dsh/contracts'
import { errorMessage, resolveDshHome } from '@dsh/runtime'
import { terminalLine } from '@dsh/workspace-context'
import { Config, resolveConfig, type ConfigInput } from './config.ts'
import { InstructionInjector } from './instruction-injector.ts'
import { RootRegistry } from './root-registry.ts'
import { RootsService } from './roots-service.ts'

/** Options only programmatic compositions and tests pass. */
export interface MultiRootWorkspaceHooks {
  /** Diagnostics sink, one terminal-safe line per call (default: the plugin's cordis logger). */
  readonly warn?: (line: string) => void
  /** Wall clock in epoch milliseconds for the version memo (default `Date.now`). */
  readonly now?: () => number
  /** Clock for `addedAt` of new roots. */
  readonly clock?: () => Date
  /** OS home for `~` (tests). */
  readonly home?: string
}

function apply(ctx: Context, input: ConfigInput, hooks: MultiRootWorkspaceHooks): void {
  const config = resolveConfig(input)
  if (!config.enabled) return
  const logger = ctx.logger('multi-root-workspace')
  const sink = hooks.warn ?? ((line: string) => logger.warn(line))
  const warn = (line: string): void => sink(terminalLine(line))
  const dshHome: string = config.dshHome ?? ctx.get('dshHome') ?? resolveDshHome({ env: process.env })
  const registry = new RootRegistry({ dshHome, ...(hooks.clock === undefined ? {} : { clock: hooks.clock }), ...(hooks.home === undefined ? {} : { home: hooks.home }) })
  const roots = new RootsService({ registry, ...(hooks.clock === undefined ? {} : { clock: hooks.clock }), home: hooks.home, warn })
  ctx.provide('workspaceRoots', roots)
  const injector = new InstructionInjector({ config, fs: (): FileSystemPort | undefined => ctx.get('fs'), roots, dshHome, now: hooks.now ?? Date.now, warn })

  ctx.on('session/event', (session, event) => {
    injector.observe(session, event)
  })

  ctx.on('agent/pre-step', async (payload, next) => {
    const decision = await next()
    try {
      return await injector.preStep(payload, decision)
    } catch (error) {
      // Cancellation must reach the loop; any other failure costs this step its additional-root
      // instructions only (nothing was committed, the next step tries again).
      if (payload.signal.aborted) throw payload.signal.reason ?? error
      warn(`additional-root instructions could not be prepared: ${errorMessage(error)}`)
      return decision
    }
  })
}

/** A plugin instance with programmatic hooks. */
export function createMultiRootWorkspacePlugin(hooks: MultiRootWorkspaceHooks = {}) {
  return { name: 'multi-root-workspace', Config, apply: (ctx: Context, config: ConfigInput) => apply(ctx, config, hooks) }
}

/** The multi-root-workspace plugin (cordis namespace form: `name`, `Config`, `apply`). */
export const multiRootWorkspacePlugin = createMultiRootWorkspacePlugin()
