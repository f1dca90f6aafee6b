/**
 * The shared state of one guard instance that every hook handler reads: per-session states,
 * counters, runtime switches, the live config (composition config with the ten live settings
 * applied, read at judgement time) and the diagnostics sink. Also the reach rules for delegated
 * children.
 */
import type { SessionHeader } from '@dsh/contracts'
import { isChildSession } from './anchor-source.ts'
import type { Counters } from './counters.ts'
import type { ResolvedConfig } from './resolve-config.ts'
import type { SessionStates } from './session-state.ts'
import type { JudgeModel } from './strict-judge.ts'
import type { Switches } from './switches.ts'

/** What hook handlers share. */
export interface GuardCore {
  readonly states: SessionStates
  readonly counters: Counters
  readonly switches: Switches
  /** The effective config now. */
  config(): ResolvedConfig
  /** One diagnostic line (stderr in the CLI). */
  readonly warn: (line: string) => void
  /** Today as `YYYY-MM-DD` (ledger lines). */
  readonly today: () => string
  /** The strict-mode judge, when the composition provides a model. */
  readonly judge: JudgeModel | undefined
}

/** True when the documents (reminder, unread reminder, ledger, induction) reach this session. */
export function documentsReach(header: SessionHeader, config: ResolvedConfig): boolean {
  return !isChildSession(header) || config.inSubagents
}

/** True when the anchor reaches this session. */
export function anchorReach(header: SessionHeader, config: ResolvedConfig): boolean {
  return !isChildSession(header) || config.anchor.inSubagents
}
