/**
 * Per-session skill state: the last discovered set (and its catalog items), what each skills
 * directory held, the directories below the cwd that joined (touched by a successful read, write
 * or edit, or named by a delivered catalog), and what must be looked at again:
 * - every directory at the first step of each turn and after a step that ran `bash` or
 *   `run_code` (whose changes have no paths);
 * - only the directories a `write` or `edit` touched, and the directories that just joined;
 * - nothing on other steps, which reuse the set: a quiet step costs the catalog comparison only.
 * Between full looks the link roots (realpaths) and the trust store are reused, and a join whose
 * directories hold no skills keeps the set as it is (no precedence pass, no new catalog items).
 * A joined directory is probed once for its skills folders (`.dsh`, `.agents`, `.claude`); only
 * the folders it holds become sources. It is probed again at a full look and when a `write`/`edit`
 * lands below it. Sources, and the folders of a source, are
 * scanned concurrently. Parsed files are reused while their version stands (scan.ts), so a rescan
 * reads changed files only. A join whose skills need no precedence decision (new names, nothing
 * broken) extends the set in place and says which items it appended, so neither precedence nor
 * the catalog delta (plugin.ts) goes over the skills that were already there.
 */
import { join } from 'node:path'
import type { FileSystemPort, SessionView, ToolExecution, ToolFinalOutcome } from '@dsh/contracts'
import { descendantDirs, isInsideRoot } from '@dsh/workspace-context'
import { catalogItem, catalogItems } from './catalog-items.ts'
import type { CatalogItem } from './catalog-delta.ts'
import { DeliveredFold } from './delivered.ts'
import { discoveryPlan } from './discover.ts'
import { FAMILIES, nestedSources, sameFamilies, type SourcesInput } from './sources.ts'
import { appendNested, namesInUse, resolveSkills, type ResolvedSkills } from './precedence.ts'
import { scanSource, type ScanFact } from './scan.ts'
import type { BrokenSkill, LoadedSkill, SkillFamily, SkillSet, SkillSource } from './types.ts'

/** Tools whose changes have no paths: every directory is looked at again after them. */
export const SHELL_TOOLS: ReadonlySet<string> = new Set(['bash', 'run_code'])

/**
 * The session's skills as of one look: a live view, whose map and items a later look may extend
 * in place (a join); hold it within one call only.
 */
export interface CurrentSkills {
  readonly skills: SkillSet
  readonly items: readonly CatalogItem[]
  /** Grows with every change of `skills` or `items`. */
  readonly version: number
  /** Set when this version only appended skills to version `from`: the catalog items appended. */
  readonly appended: { readonly from: number; readonly items: readonly CatalogItem[] } | undefined
}

/** {@link CurrentSkills} as the session holds it. */
interface SessionSet extends CurrentSkills {
  readonly skills: ResolvedSkills
  readonly items: CatalogItem[]
}

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

/**
 * The skills folders each of `dirs` holds (`<dir>/<family>/skills`), in order; undefined for a
 * directory whose folders cannot be examined (then every family is a source, and the scan
 * decides). One batch of followed stats where the port has one (`versions`), else a stat each.
 */
async function familiesIn(fs: FileSystemPort, dirs: readonly string[], signal: AbortSignal | undefined): Promise<(readonly SkillFamily[] | undefined)[]> {
  if (fs.versions !== undefined) {
    const paths: string[] = []
    for (const dir of dirs) for (const family of FAMILIES) paths.push(join(dir, family, 'skills'))
    try {
      const found = await fs.versions(paths, signal)
      const held: SkillFamily[][] = []
      for (let at = 0; at < dirs.length; at++) {
        const families: SkillFamily[] = []
        for (const [index, family] of FAMILIES.entries()) if (found[at * FAMILIES.length + index] !== undefined) families.push(family)
        held.push(families)
      }
      return held
    } catch (error) {
      // One path failed the batch: look at the directories one by one to find out which.
      if (signal?.aborted === true) throw error
    }
  }
  return Promise.all(dirs.map((dir) => familiesOf(fs, dir, signal)))
}

async function familiesOf(fs: FileSystemPort, dir: string, signal: AbortSignal | undefined): Promise<readonly SkillFamily[] | undefined> {
  try {
    const found = await Promise.all(FAMILIES.map((family) => fs.stat(join(dir, family, 'skills'), signal)))
    return FAMILIES.filter((_, index) => found[index] !== undefined)
  } catch (error) {
    // Unreadable now: not "no skills", so the scan of each family folder says what is there.
    if (signal?.aborted === true) throw error
    return undefined
  }
}

/** The sources to scan: all at a full look, else those not scanned yet and those holding a written path. */
function staleSources(sources: readonly SkillSource[], scanned: ReadonlyMap<string, unknown>, everything: boolean, written: readonly string[]): SkillSource[] {
  if (everything) return [...sources]
  const stale: SkillSource[] = []
  for (const source of sources) if (!scanned.has(source.dir) || written.some((path) => isInsideRoot(source.dir, path))) stale.push(source)
  return stale
}

/** The skill state of one session. */
export class SessionSkills {
  readonly fold = new DeliveredFold()
  /** The set version the model's catalog matches exactly, and the fold revision at which that held (plugin.ts). */
  settled: { readonly version: number; readonly revision: number } | undefined
  /** The catalog message of the last step, the set version it brings the model to, and the fold revision it was computed against. */
  pending: { readonly id: string; readonly version: number; readonly revision: number } | undefined
  /** The surface generation (`replaceGeneration`) whose compactions took no skill from the model, or whose in-use message is on the surface (plugin.ts). */
  inUseGeneration: number | undefined
  readonly #nested = new Set<string>()
  /** Joined directory → the families it holds (undefined: could not be listed); absent until listed. */
  readonly #families = new Map<string, readonly SkillFamily[] | undefined>()
  /** Joined directories to list before the next plan. */
  #unlisted = new Set<string>()
  /** Counts changes of {@link #families} that change the sources. */
  #familiesVersion = 0
  readonly #bySource = new Map<string, (LoadedSkill | BrokenSkill)[]>()
  readonly #files = new Map<string, ScanFact>()
  readonly #items = new WeakMap<LoadedSkill, CatalogItem>()
  #set: SessionSet | undefined
  /** The names in use in {@link #set} (precedence.ts `namesInUse`), built at the first append after a full pass. */
  #names: Set<string> | undefined
  #everything = true
  #written: string[] = []
  #projectRoot: string | undefined
  #plan: { readonly key: string; readonly rootsKey: string; readonly plan: Awaited<ReturnType<typeof discoveryPlan>> } | undefined
  /** Nested sources by directory, for plans of {@link #projectRoot} (sources.ts). */
  readonly #nestedMemo: NonNullable<SourcesInput['nestedMemo']> = new Map()
  #trust: Readonly<Record<string, Readonly<Record<string, string>>>> | undefined
  readonly #session: SessionView
  readonly #host: SessionDiscoveryHost
  readonly #warned: Set<string>

  constructor(session: SessionView, host: SessionDiscoveryHost, warned: Set<string>) {
    this.#session = session
    this.#host = host
    this.#warned = warned
  }

  /** Every directory is looked at again at the next use (a new turn). */
  invalidate(): void {
    this.#everything = true
  }

  /** `tools/result`: what the call may have changed, and directories below the cwd it touched. */
  observe(execution: ToolExecution, outcome: ToolFinalOutcome): void {
    if (SHELL_TOOLS.has(execution.name)) this.#everything = true
    if (outcome.isError) return
    const { cwd } = this.#session.header
    for (const touch of outcome.touched) {
      if (touch.kind === 'write' || touch.kind === 'edit') this.#written.push(touch.path)
      for (const dir of descendantDirs(this.#projectRoot ?? cwd, cwd, touch.path)) this.join(dir.abs)
    }
  }

  /** `@`-mentioned paths of a turn's prompt (workspace-context's mentions.ts): their directories join as a touch's do. */
  mentioned(paths: readonly string[]): void {
    const { cwd } = this.#session.header
    for (const path of paths) for (const dir of descendantDirs(this.#projectRoot ?? cwd, cwd, path)) this.join(dir.abs)
  }

  /** The joined directories that may hold skills folders (some family, or not listable): the only ones that give sources. */
  #withFamilies(): string[] {
    const dirs: string[] = []
    for (const [dir, families] of this.#families) if (families === undefined || families.length > 0) dirs.push(dir)
    return dirs
  }

  /** Adds a directory below the cwd (a touch, or one a delivered catalog names). */
  join(dir: string): void {
    if (this.#nested.has(dir)) return
    this.#nested.add(dir)
    this.#unlisted.add(dir)
  }

  /** Lists the joined directories not listed yet (all at a full look, and those below a written path). */
  async #listJoined(fs: FileSystemPort, everything: boolean, written: readonly string[], signal: AbortSignal | undefined): Promise<void> {
    if (everything) this.#unlisted = new Set(this.#nested)
    for (const path of written) for (const dir of this.#nested) if (isInsideRoot(dir, path)) this.#unlisted.add(dir)
    if (this.#unlisted.size === 0) return
    const dirs = [...this.#unlisted]
    const found = await familiesIn(fs, dirs, signal)
    for (let index = 0; index < dirs.length; index++) {
      const dir = dirs[index] ?? ''
      const now = found[index]
      // The sources a directory gives: its families, all three when unknown, none before its listing.
      const changes = this.#families.has(dir) ? !sameFamilies(this.#families.get(dir) ?? FAMILIES, now ?? FAMILIES) : now === undefined || now.length > 0
      this.#families.set(dir, now)
      if (changes) this.#familiesVersion++
    }
    this.#unlisted.clear()
  }

  /** The current set and its catalog items, looked at again where needed. Rethrows only cancellation. */
  async current(signal?: AbortSignal): Promise<CurrentSkills | undefined> {
    const fs = this.#host.fs()
    if (fs === undefined) return undefined
    const everything = this.#everything || this.#set === undefined
    const written = this.#written
    const additionalRoots = this.#host.additionalRoots(this.#session)
    const rootsKey = additionalRoots.join('\u0000')
    try {
      await this.#listJoined(fs, everything, written, signal)
    } catch (error) {
      // Cancelled: the next step lists everything again.
      this.#everything = true
      throw error
    }
    const key = `${rootsKey}\u0001${this.#familiesVersion}`
    const previous = this.#plan
    // Whether the sources can only have grown since the last look (joined directories alone).
    let grewOnly = !everything
    if (!everything && previous !== undefined && previous.key !== key && previous.rootsKey === rootsKey && this.#projectRoot === previous.plan.projectRoot) {
      // Only the joined directories changed: the sources up to the nested ones stay, the nested ones are rebuilt from the memo.
      const fixed = previous.plan.sources.filter((source) => source.scope !== 'nested')
      const nested = nestedSources({ projectRoot: previous.plan.projectRoot, nestedDirs: this.#withFamilies(), nestedFamilies: this.#families, nestedMemo: this.#nestedMemo })
      this.#plan = { key, rootsKey, plan: { ...previous.plan, sources: [...fixed, ...nested] } }
    } else if (everything || this.#plan?.key !== key) {
      // A join changes the sources only: the link roots of the same roots are reused until the next full look.
      const linkRoots = !everything && this.#plan?.rootsKey === rootsKey ? { linkRoots: this.#plan.plan.linkRoots } : {}
      grewOnly = false
      const plan = await discoveryPlan({ fs, cwd: this.#session.header.cwd, dshHome: this.#host.dshHome, home: this.#host.home, additionalRoots, nestedDirs: this.#withFamilies(), nestedFamilies: this.#families, ...linkRoots, ...(this.#projectRoot === undefined ? {} : { projectRoot: this.#projectRoot, nestedMemo: this.#nestedMemo }), ...(signal === undefined ? {} : { signal }) })
      this.#plan = { key, rootsKey, plan }
    }
    const { plan } = this.#plan
    const stale = staleSources(plan.sources, this.#bySource, everything, written)
    if (this.#set !== undefined && stale.length === 0 && plan.sources.length === this.#bySource.size) return this.#set
    // Joins alone: every stale source is a new nested one, and nothing else can have changed.
    const joinsOnly = grewOnly && written.length === 0 && stale.every((source) => source.scope === 'nested' && !this.#bySource.has(source.dir))
    this.#everything = false
    this.#written = []
    // Whether this look can change the set: something was or is found in a stale source, or a source went away.
    let changed = this.#set === undefined
    let scans: (LoadedSkill | BrokenSkill)[][]
    try {
      scans = await Promise.all(stale.map((source) => scanSource(source, { fs, policy: plan.policy, maxSkillBytes: this.#host.maxSkillBytes, signal, cache: this.#files })))
      stale.forEach((source, index) => {
        const scanned = scans[index] ?? []
        if (scanned.length > 0 || (this.#bySource.get(source.dir)?.length ?? 0) > 0) changed = true
        this.#bySource.set(source.dir, scanned)
      })
    } catch (error) {
      // Cancelled or failed: the next step looks at everything again.
      this.#everything = true
      throw error
    }
    // Sources that only grew lost none (the look at each one's directories costs a join nothing).
    if (!joinsOnly) changed = this.#dropGone(plan.sources) || changed
    if (everything || this.#trust === undefined) this.#trust = this.#host.trust()
    if (!changed && !everything && this.#set !== undefined) return this.#set
    if (joinsOnly && this.#set !== undefined) {
      const appended = this.#append(this.#set, scans.flat(), this.#trust[plan.projectRoot] ?? {})
      if (appended !== undefined) return appended
    }
    const found: (LoadedSkill | BrokenSkill)[] = []
    for (const source of plan.sources) for (const skill of this.#bySource.get(source.dir) ?? []) found.push(skill)
    const skills = resolveSkills({ found, projectRoot: plan.projectRoot, trusted: this.#trust[plan.projectRoot] ?? {}, linkRoots: plan.linkRoots })
    this.#projectRoot = plan.projectRoot
    this.#names = undefined
    this.#set = { skills, items: catalogItems(skills, this.#items), version: (this.#set?.version ?? 0) + 1, appended: undefined }
    for (const line of skills.problems) {
      if (this.#warned.has(line)) continue
      this.#warned.add(line)
      this.#host.warn(line)
    }
    return this.#set
  }

  /** Forgets the scans of sources no longer in `sources`; true when there were any. */
  #dropGone(sources: readonly SkillSource[]): boolean {
    const known = new Set<string>()
    for (const source of sources) known.add(source.dir)
    let dropped = false
    for (const dir of this.#bySource.keys()) {
      if (known.has(dir)) continue
      this.#bySource.delete(dir)
      dropped = true
    }
    return dropped
  }

  /**
   * The set extended in place by `joined` (the skills of newly joined nested sources, in source
   * order) when none needs a precedence decision (precedence.ts `appendNested`); `undefined`
   * when the full pass must decide.
   */
  #append(set: SessionSet, joined: readonly (LoadedSkill | BrokenSkill)[], trusted: Readonly<Record<string, string>>): SessionSet | undefined {
    this.#names ??= namesInUse(set.skills)
    const added = appendNested(set.skills, this.#names, joined, trusted)
    if (added === undefined) return undefined
    const items: CatalogItem[] = []
    for (const [key, skill] of added) {
      const item = catalogItem(key, skill, set.skills.projectRoot, this.#items)
      if (item !== undefined) items.push(item)
    }
    set.items.push(...items)
    this.#set = { skills: set.skills, items: set.items, version: set.version + 1, appended: { from: set.version, items } }
    return this.#set
  }
}
