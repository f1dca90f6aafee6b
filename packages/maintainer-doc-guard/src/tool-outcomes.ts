/**
 * What the guard learns from a finished call (`tools/result`): successful reads (the `read`
 * tool's touched paths, and files named by a shell read command that exist) satisfy the precedent
 * gate and the unread-documents reminder; a written code artifact arms the completion standard; a
 * subagent result arms its reminder; a failure followed by success on the same target induces a
 * ledger line.
 */
import { basename } from 'node:path'
import type { FileSystemPort, ToolExecution, ToolFinalOutcome } from '@dsh/contracts'
import type { Counters } from './counters.ts'
import type { DocumentSnapshot } from './document-snapshot.ts'
import { appendLine, changedKeys, inducedLine, MAX_INDUCTIONS } from './ledger-induction.ts'
import { ledgerPath } from './ledger-source.ts'
import type { ResolvedConfig } from './resolve-config.ts'
import type { SessionState } from './session-state.ts'
import { shellReadCandidates } from './shell-reads.ts'
import type { SwitchValues } from './switches.ts'
import { commandArgument, pathArgument, shellDialect } from './tool-targets.ts'
import { isCodeArtifact } from './verify-notice.ts'

/** What the observer needs. */
export interface OutcomeContext {
  readonly fs: FileSystemPort
  readonly state: SessionState
  readonly config: ResolvedConfig
  readonly switches: SwitchValues
  readonly counters: Counters
  readonly snapshot: DocumentSnapshot | undefined
  readonly documentsReach: boolean
  /** Today as `YYYY-MM-DD`. */
  readonly today: () => string
  readonly execution: ToolExecution
  readonly outcome: ToolFinalOutcome
  readonly cwd: string
}

function recordRead(context: OutcomeContext, path: string): void {
  context.state.reads.add(path)
  context.state.readNames.add(basename(path))
  context.counters.add('reads')
}

async function recordShellReads(context: OutcomeContext, command: string, dialect: 'posix' | 'powershell'): Promise<void> {
  for (const candidate of shellReadCandidates(command, dialect, context.cwd)) {
    if ((await context.fs.stat(candidate))?.type !== 'file') continue
    recordRead(context, (await context.fs.resolve(candidate, { cwd: context.cwd })).path)
  }
}

async function induce(context: OutcomeContext, target: string): Promise<void> {
  const { state, outcome, execution } = context
  if (outcome.status === 'failed' && outcome.content.trim() !== '') {
    state.lastFailure = { tool: execution.name, target, args: execution.arguments, error: outcome.content }
    return
  }
  const failure = state.lastFailure
  if (outcome.status !== 'ok' || failure === undefined || failure.tool !== execution.name || failure.target !== target) return
  state.lastFailure = undefined
  if (state.inductions >= MAX_INDUCTIONS || context.snapshot === undefined) return
  const line = inducedLine({ tool: execution.name, target, error: failure.error, changed: changedKeys(failure.args, execution.arguments), date: context.today() })
  const file = ledgerPath(context.snapshot, context.config.docsDir)
  const current = (await context.fs.stat(file))?.type === 'file' ? (await context.fs.readText(file)).text : ''
  const next = appendLine(current, line)
  if (next === undefined) return
  await context.fs.writeText(file, next)
  state.inductions += 1
  context.counters.add('ledgerInduced')
  context.counters.note('lastLedgerInduced', { tool: execution.name, target, line })
}

/** Applies one finished call. Filesystem failures reject (the caller contains them). */
export async function observeOutcome(context: OutcomeContext): Promise<void> {
  const { execution, outcome, state, switches } = context
  const tool = execution.name
  const dialect = shellDialect(tool)
  for (const touch of outcome.touched) {
    if (touch.kind === 'read') recordRead(context, touch.path)
    else if (switches.verify && isCodeArtifact(touch.path) && !state.verifyDone.has(touch.path)) state.verifyPending.add(touch.path)
  }
  const command = dialect === undefined ? undefined : commandArgument(execution.arguments)
  if (dialect !== undefined && command !== undefined && outcome.status === 'ok') await recordShellReads(context, command, dialect)
  if ((tool === 'subagent' || tool === 'subagent_fork') && outcome.status === 'ok') state.childPending += 1
  if (!switches.induce || !context.documentsReach || dialect !== undefined || (outcome.status !== 'ok' && outcome.status !== 'failed')) return
  const raw = pathArgument(execution.arguments, context.cwd)
  if (raw === undefined) return
  await induce(context, (await context.fs.resolve(raw, { cwd: context.cwd })).path)
}
