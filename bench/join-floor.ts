/**
 * The floor of a joining step of the skills benchmark: the system calls any implementation must
 * make at that step, made with `node:fs` alone inside the same session, without the skills
 * plugin, its port, parsing or a catalog. After each `read`, the next pre-step looks for the three
 * skills folders (`.dsh`, `.agents`, `.claude`) in every directory between the cwd and the file
 * that no earlier read passed through (`statSync`), lists `<dir>/.agents/skills` (`readdirSync`),
 * resolves it (`realpathSync.native`) and looks at, opens and reads every `SKILL.md` below it the
 * way the port's batch does (`lstat`, `open` with `O_NOFOLLOW | O_NONBLOCK`, `fstat`, one `read`,
 * `close`). The median over every joining step of every round is what no implementation that
 * reads the files at the step goes below on this machine: the same calls, at the same point of a
 * session, with the same caches around them.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { composeTestHost } from '@dsh/testkit'
import { createWorkspaceContextPlugin } from '@dsh/workspace-context'
import type { GeneratedMonorepo } from './generate-monorepo.ts'
import { median } from './stats.ts'

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK

/** Reads every `SKILL.md` of skills folder `dir` with plain system calls; returns the bytes read. */
function readFolder(dir: string): number {
  let bytes = 0
  const names = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
  realpathSync.native(dir)
  for (const name of names) {
    const file = join(dir, name, 'SKILL.md')
    if (!lstatSync(file).isFile()) continue
    const fd = openSync(file, OPEN_FLAGS)
    try {
      const buffer = Buffer.allocUnsafe(fstatSync(fd).size + 1)
      bytes += readSync(fd, buffer, 0, buffer.length, 0)
    } finally {
      closeSync(fd)
    }
  }
  return bytes
}

const FAMILIES = ['.dsh', '.agents', '.claude']

/** Looks for the skills folders of the directories from `root` (exclusive) down to `dir` not in `seen`; returns how many it found. */
function probeFamilies(root: string, dir: string, seen: Set<string>): number {
  let found = 0
  let current = root
  for (const part of relative(root, dir).split(sep)) {
    current = join(current, part)
    if (seen.has(current)) continue
    seen.add(current)
    for (const family of FAMILIES) if (statSync(join(current, family, 'skills'), { throwIfNoEntry: false }) !== undefined) found++
  }
  return found
}

/** The median time of reading a joined skills folder at the next pre-step, over `rounds` sessions of the first `joins` reads. */
export async function joinFloorMs(repo: GeneratedMonorepo, joins: number, rounds: number): Promise<number> {
  const times: number[] = []
  for (let round = 0; round < rounds; round++) {
    const test = await composeTestHost({ dshHome: repo.home, writableRoots: [repo.root] })
    try {
      await test.host.ctx.plugin(createWorkspaceContextPlugin({ warn: () => undefined }), { maxBytes: 65536, dshHome: repo.home })
      let joined: string | undefined
      const seen = new Set<string>()
      test.host.ctx.on('tools/result', (execution) => {
        const args = execution.arguments
        const path: unknown = typeof args === 'object' && args !== null ? Reflect.get(args, 'file_path') : undefined
        if (execution.name === 'read' && typeof path === 'string') joined = dirname(path)
      })
      test.host.ctx.on('agent/pre-step', async (_payload, next) => {
        const decision = await next()
        if (joined !== undefined) {
          const start = performance.now()
          if (probeFamilies(repo.root, joined, seen) === 0 || readFolder(join(joined, '.agents', 'skills')) === 0) throw new Error(`no skills found in ${joined}`)
          times.push(performance.now() - start)
          joined = undefined
        }
        return decision
      })
      const responses = [...repo.readTargets.slice(0, joins).map((target) => ({ toolCalls: [{ name: 'read', arguments: { file_path: target } }] })), { text: 'done' }]
      const agent = await test.start({ cwd: repo.root, script: { responses } })
      const result = await agent.prompt('Read the files one at a time.')
      if (result.reason !== 'completed') throw new Error(`floor session ended with ${result.reason}`)
    } finally {
      await test.host.dispose()
    }
  }
  return median(times)
}
