// The one list of secret locations, seen from both of its users: in a home where every location
// exists, each one the read tools refuse (pathFacts with secretReadPaths) is hidden in a real
// sandbox (sandboxMasks, then `cat`/`ls` inside bubblewrap shows nothing), and each one the
// sandbox hides is refused by the read tools; ordinary files next to them are neither.
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { createSandboxLauncher, pathFacts, sandboxMasks, secretLocations, secretReadPaths } from '../src/index.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

describe('the secret locations', () => {
  it('every path the read tools refuse is masked in the sandbox, and every masked one is refused', async () => {
    tree = await tempTree({ 'home/notes.txt': 'plain\n', 'home/.config/other/x.txt': 'plain\n', 'dsh/settings.yaml': '', 'repo/': null, 'tmp/': null })
    const home = tree.path('home')
    const dshHome = tree.path('dsh')
    const locations = secretLocations(home, dshHome)
    for (const location of locations) {
      if (location.kind === 'directory') {
        mkdirSync(location.path, { recursive: true })
        writeFileSync(join(location.path, 'secret.txt'), 'secret-inside\n')
      } else {
        mkdirSync(dirname(location.path), { recursive: true })
        writeFileSync(location.path, 'secret-file\n')
      }
    }
    const refused = (path: string): boolean => pathFacts({ tool: 'read', args: { file_path: path }, cwd: tree?.path('repo') ?? '', roots: [], protectedDirs: [], secretPaths: secretReadPaths({ home, dshHome }) }).secret !== undefined
    const masked = new Set(sandboxMasks({ env: {}, home, dshHome, uid: 4242, tempDir: tree.path('tmp'), keep: [tree.path('repo')] }).map((mask) => mask.path))
    // A masked parent hides what is below it (.config/gh is not masked again under a masked .config).
    const hidden = (path: string): boolean => [...masked].some((mask) => path === mask || path.startsWith(`${mask}/`))
    for (const location of locations) {
      const probe = location.kind === 'directory' ? join(location.path, 'secret.txt') : location.path
      expect({ probe, refused: refused(probe), hidden: hidden(location.path) }).toEqual({ probe, refused: true, hidden: true })
    }
    for (const mask of masked) expect({ mask, refused: refused(mask) }).toEqual({ mask, refused: true })
    for (const plain of [join(home, 'notes.txt'), join(home, '.config/other/x.txt'), join(dshHome, 'settings.yaml')]) expect({ plain, refused: refused(plain), hidden: hidden(plain) }).toEqual({ plain, refused: false, hidden: false })

    const launcher = createSandboxLauncher({ mode: 'full-auto', network: true, secretVariables: [], env: process.env, home, dshHome, uid: 4242, tempDir: tree.path('tmp'), warn: () => undefined, interactive: false })
    const script = locations.map((location) => (location.kind === 'directory' ? `ls -A '${location.path}'` : `cat '${location.path}'`)).join('; ')
    const plan = launcher.plan({ file: 'bash', args: ['-c', `${script}; cat '${join(home, 'notes.txt')}'`], cwd: tree.path('repo'), env: process.env, writableRoots: [tree.path('repo')] })
    expect(plan.sandboxed).toBe(true)
    const run = spawnSync(plan.file, [...plan.args], { env: plan.env, encoding: 'utf8' })
    launcher.dispose()
    expect(run.stdout).toBe('plain\n')
  })
})
