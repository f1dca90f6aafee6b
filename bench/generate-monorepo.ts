/**
 * Deterministic monorepo generator for the instruction-file benchmark: a tree of about 2,000
 * directories whose leaves sit 6–8 levels below the root, a `.git` marker at the root, a mix of
 * AGENTS.md / CLAUDE.md / AGENTS.local.md files of a few KB spread over every level, TypeScript
 * source files in every directory, and the read targets (60 reads over 30 distinct directories).
 *
 * `planMonorepo` is pure (same options, same plan, byte for byte); `writeMonorepo` puts a plan on
 * disk in a fresh temp directory next to an empty `$DSH_HOME`, outside the repository so that
 * session logs never change a repository directory's version.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { instructionText, sourceText } from './fixture-text.ts'
import { seededRandom, type SeededRandom } from './seeded-random.ts'

/** Shape of the generated repository. */
export interface MonorepoOptions {
  readonly seed: number
  /** Directories below the root. */
  readonly directories: number
  /** Depth range of the leaves (a walk stops at a depth drawn from this range). */
  readonly minLeafDepth: number
  readonly maxDepth: number
  /** Instruction files in total (two of them at the root). */
  readonly instructionFiles: number
  /** How many of them sit in directories no read passes through. */
  readonly offPathInstructionFiles: number
  /** Distinct directories the reads go to. */
  readonly targetDirectories: number
  /** Reads in total; every target directory is visited once per pass, in a new order each pass. */
  readonly reads: number
}

/** The workload of issue 4. */
export const BENCH_MONOREPO: MonorepoOptions = { seed: 4, directories: 2000, minLeafDepth: 6, maxDepth: 8, instructionFiles: 40, offPathInstructionFiles: 8, targetDirectories: 30, reads: 60 }

/** One file to write; `path` is root-relative with `/`. */
export interface PlannedFile {
  readonly path: string
  readonly text: string
}

/** One instruction file; `dir` is root-relative (`.` for the root). */
export interface PlannedInstructionFile {
  readonly dir: string
  readonly name: string
  readonly bytes: number
}

/** Everything `writeMonorepo` needs, and what the oracle and the report describe. */
export interface MonorepoPlan {
  readonly options: MonorepoOptions
  /** Directories below the root, root-relative, parents before children. */
  readonly directories: readonly string[]
  /** Directory count per depth (index 0 is the root). */
  readonly depthHistogram: readonly number[]
  readonly instructionFiles: readonly PlannedInstructionFile[]
  /** Every file (sources and instruction files). */
  readonly files: readonly PlannedFile[]
  readonly targetDirectories: readonly string[]
  /** Root-relative files in read order. */
  readonly reads: readonly string[]
}

/** A plan on disk. */
export interface GeneratedMonorepo {
  readonly plan: MonorepoPlan
  /** Canonical repository root (holds `.git`). */
  readonly root: string
  /** Canonical, empty `$DSH_HOME` beside the repository. */
  readonly home: string
  /** Absolute read targets in order. */
  readonly readTargets: readonly string[]
  /** Removes the temp directory. */
  dispose(): void
}

const TOP = ['packages', 'apps', 'services', 'libs', 'tools', 'infra']
const PACKAGES = ['auth', 'billing', 'search', 'checkout', 'catalog', 'identity', 'payments', 'notify', 'gateway', 'analytics', 'media', 'profile', 'inventory', 'shipping', 'reports', 'admin']
const INNER = ['src', 'lib', 'internal', 'components', 'handlers', 'models', 'utils', 'core', 'api', 'adapters', 'routes', 'views', 'hooks', 'store', 'schema', 'jobs', 'workers', 'domain']

const depthOf = (rel: string): number => (rel === '.' ? 0 : rel.split('/').length)
const join2 = (parent: string, name: string): string => (parent === '.' ? name : `${parent}/${name}`)

function childName(random: SeededRandom, depth: number, taken: readonly string[]): string {
  const pool = depth === 1 ? TOP : depth === 2 ? PACKAGES : INNER
  for (let attempt = 0; attempt < 8; attempt++) {
    const name = random.pick(pool)
    if (!taken.includes(name)) return name
  }
  let suffix = 2
  const stem = random.pick(pool)
  while (taken.includes(`${stem}-${suffix}`)) suffix++
  return `${stem}-${suffix}`
}

/** Most children a directory at `depth` gets. */
const fanout = (depth: number): number => (depth === 1 ? TOP.length : depth === 2 ? 10 : 5)

/** Grows the tree by random walks from the root until it holds `options.directories` directories. */
function growTree(random: SeededRandom, options: MonorepoOptions): string[] {
  const children = new Map<string, string[]>([['.', []]])
  const order: string[] = []
  while (order.length < options.directories) {
    const leafDepth = random.between(options.minLeafDepth, options.maxDepth)
    let current = '.'
    for (let depth = 1; depth <= leafDepth && order.length < options.directories; depth++) {
      const siblings = children.get(current) ?? []
      const grow = siblings.length === 0 || (siblings.length < fanout(depth) && random.next() < 0.3)
      if (grow) {
        const child = join2(current, childName(random, depth, siblings))
        siblings.push(child.slice(child.lastIndexOf('/') + 1))
        children.set(child, [])
        order.push(child)
        current = child
      } else {
        current = join2(current, random.pick(siblings))
      }
    }
  }
  return order
}

/** Round-robin over depths so that the chosen directories cover every level. */
function spreadOverDepths(random: SeededRandom, dirs: readonly string[], count: number): string[] {
  const byDepth = new Map<number, string[]>()
  for (const dir of random.shuffled(dirs)) byDepth.set(depthOf(dir), [...(byDepth.get(depthOf(dir)) ?? []), dir])
  const depths = [...byDepth.keys()].toSorted((a, b) => a - b)
  const chosen: string[] = []
  while (chosen.length < count && chosen.length < dirs.length) {
    for (const depth of depths) {
      const next = byDepth.get(depth)?.shift()
      if (next !== undefined && chosen.length < count) chosen.push(next)
    }
  }
  return chosen
}

function instructionName(random: SeededRandom): string {
  const roll = random.next()
  return roll < 0.6 ? 'AGENTS.md' : roll < 0.8 ? 'CLAUDE.md' : 'AGENTS.local.md'
}

function ancestorsOf(dir: string): string[] {
  const parts = dir.split('/')
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'))
}

/** Plans the repository for `options` (pure and deterministic). */
export function planMonorepo(options: MonorepoOptions = BENCH_MONOREPO): MonorepoPlan {
  const random = seededRandom(options.seed)
  const directories = growTree(random, options)
  const histogram = Array.from({ length: options.maxDepth + 1 }, (_, depth) => (depth === 0 ? 1 : directories.filter((d) => depthOf(d) === depth).length))

  const sources = new Map<string, string[]>()
  const files: PlannedFile[] = []
  for (const dir of directories) {
    const names = ['index.ts', ...random.shuffled(INNER).slice(0, random.below(3)).map((word) => `${word}.ts`)]
    sources.set(dir, names)
    for (const name of names) files.push({ path: `${dir}/${name}`, text: sourceText(random, name) })
  }

  const deep = directories.filter((dir) => depthOf(dir) >= options.minLeafDepth - 1)
  const targetDirectories = random.shuffled(deep).slice(0, options.targetDirectories)
  const reads: string[] = []
  for (let pass = 0; reads.length < options.reads; pass++) {
    const order = pass === 0 ? targetDirectories : random.shuffled(targetDirectories)
    for (const dir of order) {
      const names = sources.get(dir) ?? ['index.ts']
      if (reads.length < options.reads) reads.push(`${dir}/${pass === 0 ? 'index.ts' : random.pick(names)}`)
    }
  }

  const onPath = [...new Set(targetDirectories.flatMap(ancestorsOf))]
  const onPathSet = new Set(onPath)
  const offPath = directories.filter((dir) => !onPathSet.has(dir))
  const onPathCount = Math.max(0, options.instructionFiles - 2 - options.offPathInstructionFiles)
  const placed: PlannedInstructionFile[] = [
    { dir: '.', name: 'AGENTS.md', bytes: random.between(1500, 4000) },
    { dir: '.', name: 'CLAUDE.md', bytes: random.between(1500, 4000) },
  ]
  for (const dir of spreadOverDepths(random, onPath, onPathCount)) placed.push({ dir, name: instructionName(random), bytes: random.between(1500, 4000) })
  for (const dir of random.shuffled(offPath).slice(0, options.offPathInstructionFiles)) placed.push({ dir, name: instructionName(random), bytes: random.between(1500, 4000) })
  const instructionFiles = placed.map((file) => {
    const text = instructionText(random, file.dir, file.bytes)
    files.push({ path: join2(file.dir, file.name), text })
    return { ...file, bytes: Buffer.byteLength(text) }
  })

  return { options, directories, depthHistogram: histogram, instructionFiles, files, targetDirectories, reads }
}

/** Writes `plan` into a new temp directory (synchronously; about a second for the full workload). */
export function writeMonorepo(plan: MonorepoPlan): GeneratedMonorepo {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-bench-')))
  const root = join(base, 'repo')
  const home = join(base, 'home')
  mkdirSync(join(root, '.git'), { recursive: true })
  writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n')
  mkdirSync(home)
  for (const dir of plan.directories) mkdirSync(join(root, ...dir.split('/')), { recursive: true })
  for (const file of plan.files) {
    const target = join(root, ...file.path.split('/'))
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, file.text)
  }
  return {
    plan,
    root,
    home,
    readTargets: plan.reads.map((read) => join(root, ...read.split('/'))),
    dispose: () => rmSync(base, { recursive: true, force: true }),
  }
}
