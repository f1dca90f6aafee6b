/**
 * The guard's `tools/pre-execute` decision, applied after the downstream guards have answered
 * (monotonic: it may tighten an allow or an ask into a deny, never loosen a deny):
 * 1. operator documents are read-only (no escape);
 * 2. the intent gate (nudge, deny, give up), then the drift check;
 * 3. the anchor as a notice, when `anchor.delivery` is `message`;
 * 4. the precedent gate;
 * 5. when nothing denied: the advisory notices.
 */
import { isAbsolute, join } from 'node:path'
import type { AgentHandle, FileSystemPort, PreExecuteVerdict, ToolExecution } from '@dsh/contracts'
import { renderAnchor } from './anchor-section.ts'
import { isChildSession } from './anchor-source.ts'
import { advisoryStage } from './advisory-notices.ts'
import { callFacts, type CallFacts } from './call-facts.ts'
import { displayPath, LEDGER_TAIL } from './document-roles.ts'
import { operatorDocDenial } from './gate-texts.ts'
import { anchorReach, documentsReach, type GuardCore } from './guard-core.ts'
import { driftStage, intentStage, type TurnStageContext } from './intent-gate.ts'
import { ledgerPath } from './ledger-source.ts'
import { deliverNotice } from './notice-delivery.ts'
import { operatorDocMatcher, operatorTarget, type OperatorTarget } from './operator-docs.ts'
import { precedentStage } from './precedent-gate.ts'
import type { ResolvedConfig } from './resolve-config.ts'
import type { SessionState } from './session-state.ts'

async function operatorDocument(fs: FileSystemPort, facts: CallFacts, config: ResolvedConfig, signal: AbortSignal): Promise<OperatorTarget | undefined> {
  const found = await operatorTarget(fs, facts.documentTargets.map((target) => target.path), operatorDocMatcher(config), signal)
  return found ?? (facts.namedDocument === undefined ? undefined : { path: facts.namedDocument, folder: false })
}

function ledgerShown(state: SessionState, config: ResolvedConfig, cwd: string): string {
  const path = state.snapshot === undefined ? join(cwd, config.docsDir, LEDGER_TAIL) : ledgerPath(state.snapshot, config.docsDir)
  return displayPath(cwd, path)
}

async function anchorNotice(core: GuardCore, stage: TurnStageContext): Promise<void> {
  const { config, state, agent } = stage
  if (!config.anchor.enabled || config.anchor.delivery !== 'message' || !anchorReach(state.header, config)) return
  const quote = state.anchor.current(agent.session.events)
  if (quote === undefined) return
  const text = renderAnchor({ config: config.anchor, quote, child: isChildSession(state.header), strict: core.switches.get().strictOnTopic })
  if (text === state.anchorSent) return
  state.anchorSent = text
  if ((await deliverNotice({ agent, tag: 'anchor', text, tool: stage.tool, dryRun: false, counters: core.counters, warn: core.warn })) !== 'sent') return
  core.counters.add('anchorSent')
  core.counters.note('lastAnchor', { chars: quote.length })
}

/** Judges one call that downstream guards did not deny. */
export async function guardCall(core: GuardCore, fs: FileSystemPort, execution: ToolExecution, agent: AgentHandle, downstream: PreExecuteVerdict): Promise<PreExecuteVerdict> {
  const config = core.config()
  const switches = core.switches.get()
  const state = core.states.of(agent.session)
  const cwd = agent.cwd
  const facts = await callFacts(fs, execution, cwd, config)
  const operatorDoc = switches.operatorDocsReadOnly ? await operatorDocument(fs, facts, config, execution.signal) : undefined
  if (operatorDoc !== undefined) {
    core.counters.add('operatorDocsDenied')
    const target = isAbsolute(operatorDoc.path) ? displayPath(cwd, operatorDoc.path) : operatorDoc.path
    return operatorDocDenial({ tool: facts.tool, shell: facts.dialect !== undefined, target, folder: operatorDoc.folder, ledger: ledgerShown(state, config, cwd) })
  }
  const stage: TurnStageContext = { agent, state, config, counters: core.counters, warn: core.warn, tool: facts.tool, args: facts.args, command: facts.command, shell: facts.dialect !== undefined }
  const intent = await intentStage(stage)
  if (intent !== undefined) return intent
  await driftStage(stage)
  await anchorNotice(core, stage)
  const roots = state.snapshot?.trustedRoots ?? (facts.gateTargets.length === 0 ? [] : [(await fs.resolve(cwd, { cwd, signal: execution.signal })).path])
  const precedent = await precedentStage({ fs, state, gate: config.gate, counters: core.counters, log: core.warn, tool: facts.tool, cwd, targets: facts.gateTargets, roots, signal: execution.signal })
  if (precedent !== undefined) return precedent
  await advisoryStage({ ...stage, switches, snapshot: state.snapshot, documentsReach: documentsReach(state.header, config), target: facts.target })
  return downstream
}
