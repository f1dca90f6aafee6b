/**
 * Per-session skill state: the last discovered set, the directories below the cwd that joined
 * (touched by a successful read, write or edit, or recorded in a delivered catalog), and whether
 * the disk must be looked at again. A rescan happens at the first step of every turn, after a step
 * in which a tool may have changed files (write, edit, bash, run_code), and when a new directory
 * joined; other steps reuse the set, so a quiet step costs only the catalog comparison.
 */
import type { FileSystemPort, SessionView, ToolExecution, ToolFinalOutcome } from '@dsh/contracts'
import { descendantDirs } from '@dsh/workspace-context'
import { DeliveredFold } from './delivered.ts'
import { discoverSkills } from './discover.ts'
import type { SkillSet } from './types.ts'

/** Tools after which the disk is looked at again. */
export const CHANGING_TOOLS: ReadonlySet<string> = new Set(['write', 'edit', 'bash', 'run_code'])

/** What discovery of one session needs from the host. */
export interface SessionDiscoveryHost {
  readonly fs: () => FileSystemPort | undefined
  readonly dshHome: string
  readonly home: string
  readonly maxSkillBytes: number
  readonly additionalRoots: (session: SessionView) => readonly string[]
  readonly trust: () => Readonly<Record<string, Readonly<Record<string, string>>>>
  readonly warn: (line: string) => void
}

/** The skill state of one session. */
export class SessionSkills {
  readonly fold = new DeliveredFold()
  readonly #nested = new Set<string>()
  #set: SkillSet | undefined
  #dirty = true
  #projectRoot: string | undefined
  readonly #session: SessionView
  readonly #host: SessionDiscoveryHost
  readonly #warned: Set<string>

  constructor(session: SessionView, host: SessionDiscoveryHost, warned: Set<string>) {
    this.#session = session
    this.#host = host
    this.#warned = warned
  }

  /** Marks the set stale (a new turn). */
  invalidate(): void {
    this.#dirty = true
  }

  /** `tools/result`: a changing tool makes the next step look again; touched paths below the cwd join their directories. */
  observe(execution: ToolExecution, outcome: ToolFinalOutcome): void {
    if (execution.parent === undefined && CHANGING_TOOLS.has(execution.name)) this.#dirty = true
    if (outcome.isError) return
    const { cwd } = this.#session.header
    for (const touch of outcome.touched) {
      if (touch.kind === 'write' || touch.kind === 'edit') this.#dirty = true
      for (const dir of descendantDirs(this.#projectRoot ?? cwd, cwd, touch.path)) this.join(dir.abs)
    }
  }

  /** Adds a directory below the cwd (a touch, or one a delivered catalog names). */
  join(dir: string): void {
    if (this.#nested.has(dir)) return
    this.#nested.add(dir)
    this.#dirty = true
  }

  /** The current set, discovered again when stale. Rethrows only cancellation. */
  async current(signal?: AbortSignal): Promise<SkillSet | undefined> {
    const fs = this.#host.fs()
    if (fs === undefined) return undefined
    if (this.#set !== undefined && !this.#dirty) return this.#set
    this.#dirty = false
    const set = await discoverSkills({
      fs,
      cwd: this.#session.header.cwd,
      dshHome: this.#host.dshHome,
      home: this.#host.home,
      additionalRoots: this.#host.additionalRoots(this.#session),
      nestedDirs: [...this.#nested],
      trust: this.#host.trust(),
      maxSkillBytes: this.#host.maxSkillBytes,
      ...(this.#projectRoot === undefined ? {} : { projectRoot: this.#projectRoot }),
      ...(signal === undefined ? {} : { signal }),
    }).catch((error: unknown) => {
      // Cancelled or failed: the next step looks again.
      this.#dirty = true
      throw error
    })
    this.#projectRoot = set.projectRoot
    this.#set = set
    for (const line of set.problems) {
      if (this.#warned.has(line)) continue
      this.#warned.add(line)
      this.#host.warn(line)
    }
    return set
  }
}
