/**
 * The cordis plugin that fills checkpoints from the tool pipeline. For `write` and `edit` the
 * target's pre-image is stored (durably) in `tools/pre-execute`, after every guard allowed the
 * call and before the tool runs; what the tool left is recorded in `tools/post-execute`. For the
 * tools that run other processes or agents — `bash`, `run_code`, `subagent` (the child's changes
 * are the parent turn's too) and MCP tools (`mcp__…`, servers run outside the sandbox and may write
 * anywhere) — the session's writable roots are re-synced before the call and after it (see
 * root-tracker.ts). Before a session's first step, a rewind a crash interrupted
 * is completed or rolled back. Captures of one session run one at a time. A capture that
 * fails never fails the call: it is logged, and the call runs without a checkpoint for that file.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { FileSystemPort, ToolExecution, WorkspaceRootsService } from '@dsh/contracts'
import { DEFAULT_MAX_BYTES } from './byte-budget.ts'
import { DEFAULT_MAX_FILE_BYTES } from './file-state.ts'
import { CheckpointDirectory } from './checkpoint-directory.ts'
import { isWritable } from './conversation-marker.ts'
import { recoverRewind } from './rewind-apply.ts'
import { SessionCapture } from './session-capture.ts'
import { currentTurn } from './turn-of.ts'

/** Options of the capture plugin. */
export interface CapturePluginOptions {
  /** Resolved dsh home (checkpoints go under `checkpoints/`). */
  readonly dshHome: string
  /** Largest file kept whole (default 5 MiB). */
  readonly maxFileBytes?: number | undefined
  /** Per-session budget (default 1 GiB). */
  readonly maxBytes?: number | undefined
  /** Diagnostics and notices (one line each). */
  readonly log: (line: string) => void
}

/** Tools whose target file is named by `file_path`. */
const FILE_TOOLS: ReadonlySet<string> = new Set(['write', 'edit'])
/** Tools that run processes or agents which may change anything in the roots. */
const PROCESS_TOOLS: ReadonlySet<string> = new Set(['bash', 'run_code', 'subagent'])
const changesAnything = (name: string): boolean => PROCESS_TOOLS.has(name) || name.startsWith('mcp__')

const filePath = (args: unknown): string | undefined => {
  const value: unknown = typeof args === 'object' && args !== null ? Reflect.get(args, 'file_path') : undefined
  return typeof value === 'string' ? value : undefined
}

/** The capture plugin. */
export function createCheckpointsPlugin(options: CapturePluginOptions) {
  return {
    name: 'checkpoints',
    apply(ctx: Context): void {
      const sessions = new Map<string, SessionCapture>()
      const queues = new Map<string, Promise<unknown>>()
      const targets = new Map<symbol, string>()
      ctx.effect(() => () => {
        for (const capture of sessions.values()) capture.close()
      })
      const limits = { maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES }

      const captureOf = (id: string): SessionCapture => {
        let capture = sessions.get(id)
        if (capture === undefined) {
          capture = new SessionCapture(options.dshHome, id, limits)
          sessions.set(id, capture)
        }
        return capture
      }
      /** Runs `step` after the session's earlier captures; failures are logged, never thrown. */
      const serial = (execution: ToolExecution, what: string, step: (capture: SessionCapture, turn: number, roots: readonly string[]) => boolean | void | Promise<boolean | void>): Promise<void> => {
        const agent = execution.agent
        if (agent === undefined) return Promise.resolve()
        const run = async (): Promise<void> => {
          try {
            const service: WorkspaceRootsService | undefined = ctx.get('workspaceRoots')
            const roots = [agent.cwd, ...(service === undefined ? [] : service.session(agent.session).writableRoots())]
            const exceeded = await step(captureOf(agent.id), currentTurn(agent.session), roots)
            if (exceeded === true) options.log(`notice: the checkpoints of session ${agent.id} reached checkpoints.maxBytes (${limits.maxBytes} bytes); files changed from now on in this session cannot be restored by dsh rewind`)
          } catch (error) {
            // Contained: a checkpoint that cannot be written must not stop the tool; it is said once per failure.
            options.log(`warning: checkpoint ${what} failed for ${execution.name} (${execution.callId}): ${error instanceof Error ? error.message : String(error)}`)
          }
        }
        const next = (queues.get(agent.id) ?? Promise.resolve()).then(run)
        queues.set(agent.id, next)
        return next
      }

      // A rewind a crash interrupted is finished or rolled back before the session's first step.
      const checked = new Set<string>()
      ctx.on('agent/pre-step', async (payload, next) => {
        const { agent } = payload
        if (!checked.has(agent.id)) {
          checked.add(agent.id)
          try {
            const directory = new CheckpointDirectory(options.dshHome, agent.id)
            if (isWritable(agent.session) && directory.journal() !== undefined) {
              const recovery = recoverRewind(directory, agent.session)
              options.log(`note: an interrupted rewind of session ${agent.id} was ${recovery === 'completed' ? 'completed' : 'rolled back'}`)
            }
          } catch (error) {
            // Contained: the turn still runs; the next dsh rewind of the session tries again.
            options.log(`warning: finishing an interrupted rewind of session ${agent.id} failed: ${error instanceof Error ? error.message : String(error)}`)
          }
        }
        return next()
      })

      ctx.on('tools/pre-execute', async (execution, next) => {
        const verdict = await next()
        if (verdict.kind === 'deny' || execution.agent === undefined) return verdict
        if (FILE_TOOLS.has(execution.name)) {
          const fs: FileSystemPort | undefined = ctx.get('fs')
          const file = filePath(execution.arguments)
          if (fs === undefined || file === undefined) return verdict
          let target: string
          try {
            target = (await fs.resolve(file, { cwd: execution.agent.cwd, signal: execution.signal })).path
          } catch {
            // A path that cannot be resolved fails in the tool itself; nothing to keep.
            return verdict
          }
          targets.set(execution.token, target)
          await serial(execution, 'before write', (capture, turn, roots) => capture.beforeWrite(turn, roots, target, execution.name))
        } else if (changesAnything(execution.name)) {
          await serial(execution, 'before command', (capture, _turn, roots) => capture.beforeShell(roots))
        }
        return verdict
      })

      ctx.on('tools/post-execute', async (execution, output, next) => {
        const decision = await next()
        const target = targets.get(execution.token)
        targets.delete(execution.token)
        if (target !== undefined) await serial(execution, 'after write', (capture, turn, roots) => capture.afterWrite(turn, roots, target))
        else if (changesAnything(execution.name)) await serial(execution, 'after command', (capture, turn, roots) => capture.afterShell(turn, roots, execution.name))
        void output
        return decision
      })
    },
  }
}
