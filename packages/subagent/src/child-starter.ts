/**
 * The standard way to start a child: a new agent on the same host (so the same tools and plugins)
 * in the parent's working directory, with a child session header (`origin: 'subagent'`,
 * `parentSession`, `delegationDepth` + 1). The delegation is queued as its first message, the
 * child runs to the end of its turn under the parent's cancellation signal, and is disposed.
 * The product passes what its own agents run with (step limit, request log, automatic
 * compaction), so a child is limited, logged and compacted like its parent.
 */
import type { ModelProvider } from '@dsh/contracts'
import { isAbortError, type Host, type StartAgentOptions } from '@dsh/runtime'
import type { ChildResult, StartChild } from './child-request.ts'
import { delegationMessage } from './delegation-message.ts'

/** Options of {@link createChildStarter}. */
export interface ChildStarterOptions {
  /** The child's model: a provider, or a factory called once per child. */
  readonly provider: ModelProvider | (() => ModelProvider)
  /** Step limit of the child's turn (the runtime default when absent). */
  readonly maxSteps?: number
  /** Receives each of the child's request bodies before it is sent (e.g. a request log). */
  readonly onRequest?: StartAgentOptions['onRequest']
  /** Automatic compaction of the child's session; absent disables it. */
  readonly autoCompact?: StartAgentOptions['autoCompact']
}

/** Creates a {@link StartChild} over `host`. */
export function createChildStarter(host: Host, options: ChildStarterOptions): StartChild {
  return async (request) => {
    const provider = typeof options.provider === 'function' ? options.provider() : options.provider
    const child = await host.startAgent({
      cwd: request.parent.cwd,
      provider,
      parentSession: request.parent.id,
      delegationDepth: request.parent.delegationDepth + 1,
      ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
      ...(options.onRequest === undefined ? {} : { onRequest: options.onRequest }),
      ...(options.autoCompact === undefined ? {} : { autoCompact: options.autoCompact }),
    })
    const sessionId = child.session.id
    try {
      await child.handle.inbox.append('next-turn', delegationMessage(request))
      const result = await child.run({ signal: request.signal })
      if (result === undefined) return { finalText: '', sessionId, reason: 'error', error: 'the child agent ran no turn' }
      return { finalText: result.finalText, sessionId, reason: result.reason, ...(result.error === undefined ? {} : { error: result.error }) }
    } catch (error) {
      // The child's turn already recorded its failure in its own log; the parent sees it as data.
      const cancelled = request.signal.aborted || isAbortError(error)
      const failed: ChildResult = { finalText: '', sessionId, reason: cancelled ? 'cancelled' : 'error', error: error instanceof Error ? error.message : String(error) }
      return failed
    } finally {
      child.dispose()
    }
  }
}
