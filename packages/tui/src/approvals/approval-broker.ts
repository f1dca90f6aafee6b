/**
 * The host's `askPermission`, composed before any screen exists: it forwards each question to the
 * front end attached at the time (the full-screen dialog or the plain prompt), and rejects when no
 * front end is attached (nobody could have answered). What is asked at all is the permission
 * policy's decision (`dsh chat --yes` is the `full-auto` mode, in which nothing asks).
 */
import type { PermissionDecision, ToolExecution } from '@dsh/contracts'
import type { AskPermission } from '@dsh/runtime'
import { permissionQuestion, type PermissionQuestion } from './permission-question.ts'

/** Shows a question and resolves with the person's answer (a reject when `signal` aborts first). */
export type Asker = (question: PermissionQuestion, signal: AbortSignal) => Promise<PermissionDecision>

/** The late-bound approval of one chat. */
export interface ApprovalBroker {
  /** Give this to the host. */
  readonly askPermission: AskPermission
  /** Attaches the front end that answers from now on; returns the detach function. */
  attach(asker: Asker): () => void
}

/**
 * Creates the broker; `autoApprove` approves every question once without showing it (embedders;
 * the CLI passes false); `cwd` names the directory the questions show (known once the session is).
 */
export function createApprovalBroker(options: { readonly autoApprove: boolean; readonly cwd?: () => string | undefined }): ApprovalBroker {
  let current: Asker | undefined
  const asked = new Map<string, number>()
  return {
    askPermission: async (execution: ToolExecution, reason) => {
      if (options.autoApprove) return { kind: 'allow-once' }
      const asker = current
      if (asker === undefined) return { kind: 'reject' }
      const askedBefore = asked.get(execution.name) ?? 0
      asked.set(execution.name, askedBefore + 1)
      return asker(permissionQuestion(execution, { cwd: options.cwd?.(), reason, askedBefore }), execution.signal)
    },
    attach(asker) {
      current = asker
      return () => {
        if (current === asker) current = undefined
      }
    },
  }
}
