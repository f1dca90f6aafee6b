/**
 * `dsh compact ID [--model SPEC]`: compacts a stored session at rest: everything completed (the
 * last turn included) becomes one checkpoint that repeats the user's latest prompt verbatim. With
 * a model the summary is model-written (falling back to the deterministic summary if the call
 * fails); without one it is deterministic. A session another process is running is refused; a
 * turn a crash cut off is closed first, as a resume would close it, and compacted with the rest.
 * PreCompact hooks run first (`trigger` `manual`); one that blocks stops the compaction (exit 1).
 */
import { closeInterruptedTurn, compactSession, planCompaction, summarizeWithModel, errorMessage } from '@dsh/runtime'
import { errLine, type CliIo } from '../cli-io.ts'
import type { ConfigFile } from '../config-file.ts'
import { parseModelSpec, providerFromConfig } from '../model-spec.ts'
import { offlinePreCompact } from '../offline-pre-compact.ts'
import { dshHomeFrom } from '../global-options.ts'
import { configFrom } from './run.ts'
import { storeFor } from '../session-store-for.ts'

/** Options of `dsh compact`. */
export interface CompactOptions {
  readonly dshHome?: string
  readonly model?: string
  readonly baseUrl?: string
  readonly config?: string
}

async function modelSummary(io: CliIo, options: CompactOptions, config: ConfigFile, messages: Parameters<typeof summarizeWithModel>[1]): Promise<string | undefined> {
  const specText = options.model ?? config.model?.spec
  if (specText === undefined) return undefined
  const provider = providerFromConfig({ spec: parseModelSpec(specText), cwd: io.cwd, env: io.env, baseUrl: options.baseUrl, model: config.model, log: (line) => errLine(io, line) })
  try {
    return await summarizeWithModel(provider, messages, new AbortController().signal)
  } catch (error) {
    // The checkpoint still has value without the model: say why and use the deterministic summary.
    errLine(io, `warning: model summary failed (${errorMessage(error)}); using the deterministic summary`)
    return undefined
  }
}

/** Compacts a stored session. */
export async function compactCommand(io: CliIo, id: string, options: CompactOptions): Promise<number> {
  const session = storeFor(io, options.dshHome).open(id)
  try {
    // Holding the lock, no turn runs: a turn a crash cut off is closed the way a resume closes it
    // (its unanswered calls get their error results), so it is completed and compacted with the rest.
    closeInterruptedTurn(session)
    const plan = planCompaction(session, { scope: 'at-rest' })
    if (plan === undefined) {
      io.stdout.write(`nothing to compact in ${session.id} (its visible history is empty or already one checkpoint)\n`)
      return 0
    }
    const config = configFrom(io, options.config)
    const stopped = await offlinePreCompact(io, { session, dshHome: dshHomeFrom(io, options.dshHome), config, configPath: options.config })
    if (stopped !== undefined) {
      errLine(io, `dsh: compaction of ${session.id} stopped by a PreCompact hook: ${stopped}`)
      return 1
    }
    const before = session.surface.length
    const summary = await modelSummary(io, options, config, plan.messages)
    compactSession(session, summary === undefined ? { plan } : { plan, summary, summarizer: 'model' })
    io.stdout.write(`compacted ${session.id}: ${before} visible messages -> ${session.surface.length}${summary === undefined ? '' : ' (model summary)'}\n`)
    return 0
  } finally {
    session.close()
  }
}
