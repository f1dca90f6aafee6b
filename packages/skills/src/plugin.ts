/**
 * The cordis plugin: registers the `skill` tool and wires `agent/pre-step` (the catalog message,
 * and after a compaction the instructions of the skills in use)
 * and `tools/result` (nested directories on touch, rescans after changing tools). With
 * `enabled: false` it does nothing at all. The filesystem is read lazily, so a composition
 * without one still boots; every listener and the tool go away with the plugin.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { FileSystemPort, SessionView, UserMessage } from '@dsh/contracts'
import { errorMessage, resolveDshHome, userHome } from '@dsh/runtime'
import { mentionedPaths, terminalLine } from '@dsh/workspace-context'
import { afterInstructions, nextCatalogMessage, rejoinNested } from './catalog-injector.ts'
import { Config, resolveSkillsConfig } from './config.ts'
import { SessionSkills } from './session-skills.ts'
import { createSkillTool } from './skill-tool.ts'
import { inUseMessage } from './in-use-delivery.ts'
import type { SkillSet } from './types.ts'
import { readTrust } from './trust-store.ts'

/** Options only programmatic compositions and tests pass. */
export interface SkillsHooks {
  /** Diagnostics sink, one terminal-safe line per call (default: the plugin's cordis logger). */
  readonly warn?: (line: string) => void
  /** OS home for `~/.agents/skills` (tests). */
  readonly home?: string
}

function apply(ctx: Context, input: unknown, hooks: SkillsHooks): void {
  const config = resolveSkillsConfig(input)
  if (!config.enabled) return
  const logger = ctx.logger('skills')
  const sink = hooks.warn ?? ((line: string) => logger.warn(line))
  const warn = (line: string): void => sink(terminalLine(line))
  const dshHome: string = config.dshHome ?? ctx.get('dshHome') ?? resolveDshHome({ env: process.env })
  const warned = new Set<string>()
  // Each `ctx.get` through the context proxy costs about 3 µs (it builds an Error for its
  // diagnostics); the function taken once resolves the same services in this context at each call.
  const lookup = ctx.get.bind(ctx)
  const sessions = new WeakMap<SessionView, SessionSkills>()
  const host = {
    fs: (): FileSystemPort | undefined => lookup('fs'),
    dshHome,
    home: userHome(hooks.home),
    maxSkillBytes: config.maxSkillBytes,
    additionalRoots: (session: SessionView) => lookup('workspaceRoots')?.session(session).writableRoots() ?? [],
    trust: () => {
      const read = readTrust(dshHome)
      if (!read.ok && !warned.has(read.problem)) {
        warned.add(read.problem)
        warn(read.problem)
      }
      return read.ok ? read.projects : {}
    },
    warn,
  }
  const skillsOf = (session: SessionView): SessionSkills => {
    let skills = sessions.get(session)
    if (skills === undefined) {
      skills = new SessionSkills(session, host, warned)
      sessions.set(session, skills)
    }
    return skills
  }

  /** The in-use message once per compaction (in-use-delivery.ts); a generation is settled when none is due. */
  const inUseStep = async (skills: SessionSkills, set: SkillSet, session: SessionView, signal: AbortSignal): Promise<UserMessage | undefined> => {
    const fs = lookup('fs')
    if (fs === undefined || skills.inUseGeneration === session.replaceGeneration) return undefined
    const message = await inUseMessage({ session, set, fs, maxSkillBytes: config.maxSkillBytes, maxBytes: config.maxInUseBytes, signal })
    if (message === undefined) skills.inUseGeneration = session.replaceGeneration
    return message
  }

  const tools = ctx.get('tools')
  if (tools !== undefined) {
    const dispose = tools.register(createSkillTool({ skillsOf, maxSkillBytes: config.maxSkillBytes, maxListedFiles: config.maxListedFiles }))
    ctx.effect(() => dispose, 'skills.tool')
  }

  ctx.on('agent/pre-step', async (payload, next) => {
    const decision = await next()
    if (decision.kind !== 'enter' || (payload.step === 1 && decision.messages.length === 0)) return decision
    try {
      const skills = skillsOf(payload.agent.session)
      if (payload.step === 1) {
        skills.invalidate()
        // What the person @-mentioned joins before the first look, as a touch would.
        const fs = lookup('fs')
        if (fs !== undefined) skills.mentioned(await mentionedPaths(fs, payload.agent.session.header.cwd, payload.messages, payload.signal))
      }
      rejoinNested(skills, payload.agent.session)
      const set = await skills.current(payload.signal)
      if (set === undefined) return decision
      const session = payload.agent.session
      const message = nextCatalogMessage(skills, set, session, config.maxCatalogBytes)
      const inUse = await inUseStep(skills, set.skills, session, payload.signal)
      payload.signal.throwIfAborted()
      const messages = [message, inUse].filter((item) => item !== undefined)
      return messages.length === 0 ? decision : afterInstructions(decision, payload.messages, ...messages)
    } catch (error) {
      // Cancellation must reach the loop; any other failure costs this step its catalog only
      // (nothing was committed, the next step tries again).
      if (payload.signal.aborted) throw payload.signal.reason ?? error
      warn(`skills catalog could not be prepared: ${errorMessage(error)}`)
      return decision
    }
  })

  ctx.on('tools/result', (execution, outcome) => {
    if (execution.agent !== undefined) skillsOf(execution.agent.session).observe(execution, outcome)
  })
}

/** A plugin instance with programmatic hooks. */
export function createSkillsPlugin(hooks: SkillsHooks = {}) {
  return { name: 'skills', Config, apply: (ctx: Context, config: unknown) => apply(ctx, config, hooks) }
}

/** The skills plugin (cordis namespace form: `name`, `Config`, `apply`). */
export const skillsPlugin = createSkillsPlugin()
