// Property (issue 19, item 3): a process swapping a directory inside the root for a link to
// outside, in a tight loop, never makes writeText land outside the root — 10,000 writes raced
// against a real swapper child process. Each write either lands inside or fails with an FsError.
import { fileURLToPath } from 'node:url'
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createLocalFileSystem, isFsError } from '../src/index.ts'

const WRITES = 10_000
const swapper = fileURLToPath(new URL('./fixtures/dir-swapper.mjs', import.meta.url))

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({ 'root/d/keep.txt': 'x', 'outside/': null })
})
afterEach(async () => {
  writeFileSync(tree.path('stop'), '')
  await tree.dispose()
})

/** Every file below `dir` (relative paths). */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
}

it(`${WRITES} writes raced against a directory-to-link swapper never land outside the root`, async () => {
  const port = createLocalFileSystem({ writableRoots: [tree.path('root')] })
  const child = spawn(process.execPath, [swapper, tree.path('root'), tree.path('outside'), tree.path('stop')], { stdio: ['ignore', 'pipe', 'inherit'] })
  let output = ''
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      if (output.includes('ready')) resolve()
    })
    child.once('exit', () => reject(new Error(`swapper exited early: ${output}`)))
  })
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await ready
  const codes = new Map<string, number>()
  let landed = 0
  for (let i = 0; i < WRITES; i++) {
    try {
      await port.writeText(join(tree.path('root'), 'd', 'f.txt'), `write ${i}\n`)
      landed += 1
    } catch (error) {
      if (!isFsError(error)) throw error
      codes.set(error.code, (codes.get(error.code) ?? 0) + 1)
    }
    // Checked as we go, so a failure names the first write that got out.
    if (i % 500 === 0) expect(filesBelow(tree.path('outside')), `after write ${i}`).toEqual([])
  }
  writeFileSync(tree.path('stop'), '')
  await ended
  expect(filesBelow(tree.path('outside'))).toEqual([])
  expect(Number(/swaps (\d+)/.exec(output)?.[1] ?? 0)).toBeGreaterThan(0)
  expect(landed + [...codes.values()].reduce((a, b) => a + b, 0)).toBe(WRITES)
  for (const code of codes.keys()) expect(['FS_OUTSIDE_ROOTS', 'FS_NOT_FOUND', 'FS_NOT_A_FILE', 'FS_CONFLICT']).toContain(code)
  expect(existsSync(tree.path('root'))).toBe(true)
}, 120_000)
