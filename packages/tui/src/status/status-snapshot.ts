/**
 * What the status line and `/status` show, read from the chat at one moment: model, working
 * directory (home as `~`, long paths shortened), additional roots, approval mode, context in use
 * cache-hit share and cost from recorded usage, and whether something runs (and since when).
 */
import { userHome } from '@dsh/runtime'
import type { ChatController } from '../chat-controller.ts'
import { cacheLabel, contextLabel, costLabel, usageFigures } from './usage-meter.ts'

/** One reading. */
export interface StatusSnapshot {
  readonly model: string
  readonly cwd: string
  readonly roots: number
  readonly approvals: string
  /** `ctx 12.3k/128k (10%)` once usage was recorded. */
  readonly context?: string
  /** `$0.0123` when prices are known and usage was recorded. */
  readonly cost?: string
  /** `cache 97%` once a call reported its cache hits. */
  readonly cache?: string
  readonly sessionId: string
  /** Start of the running step or command (milliseconds), when one runs. */
  readonly runningSince?: number
}

/** `~/src/app` for paths under the home; the last three segments of very long paths. */
export function shortPath(path: string, home: string | undefined, max = 40): string {
  const base = home !== undefined && home !== '/' && (path === home || path.startsWith(`${home}/`)) ? `~${path.slice(home.length)}` : path
  if (base.length <= max) return base
  const parts = base.split('/')
  return `…/${parts.slice(-3).join('/')}`
}

/** Reads the chat's state. */
export function statusSnapshot(controller: ChatController): StatusSnapshot {
  const { env, agent, model } = controller
  const figures = usageFigures(agent.session.events, model.prices)
  const context = contextLabel(figures, model.provider.contextWindow)
  const cost = costLabel(figures, model.prices)
  const cache = cacheLabel(figures)
  const since = controller.runningSince
  return {
    model: model.label,
    cwd: shortPath(agent.handle.cwd, userHome(env.env['HOME'])),
    roots: env.additionalRoots?.(agent).length ?? 0,
    approvals: env.permissions?.label(agent) ?? env.approvalMode,
    sessionId: agent.session.id,
    ...(context === undefined ? {} : { context }),
    ...(cost === undefined ? {} : { cost }),
    ...(cache === undefined ? {} : { cache }),
    ...(since === undefined ? {} : { runningSince: since }),
  }
}

/** Elapsed time as `4.2s` or `3m05s`. */
export function elapsed(ms: number): string {
  const seconds = Math.max(0, ms) / 1000
  if (seconds < 60) return `${seconds.toFixed(1)}s`
  const whole = Math.floor(seconds)
  return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s`
}
