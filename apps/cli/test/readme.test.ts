// The top README as a new user reads it: every config key documented in its Configuration section,
// no link leaving the repository; and the demo it starts with cleans up after itself.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { tempTree, type TempTree } from '@dsh/testkit'
import { configFileSchema } from '../src/config-file.ts'
import { agentSettingsSchema } from '../src/live-settings.ts'
import { permissionSettingsSchema } from '@dsh/permissions'
import { spawnCollect, testEnv } from './run-dsh.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const readme = readFileSync(join(root, 'README.md'), 'utf8')

/** Dotted paths of the leaves of an object schema (an empty object is a leaf of its own). */
function keyPaths(schema: z.core.$ZodType, prefix = ''): string[] {
  let inner = schema
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault) inner = inner.unwrap()
  if (!(inner instanceof z.ZodObject) || Object.keys(inner.shape).length === 0) return [prefix]
  return Object.entries(inner.shape).flatMap(([key, field]) => keyPaths(field, prefix === '' ? key : `${prefix}.${key}`))
}

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

describe('README.md', () => {
  it('documents every config file key and every live setting in a table row of its Configuration section', () => {
    const section = readme.slice(readme.indexOf('\n## Configuration'), readme.indexOf('\n## ', readme.indexOf('\n## Configuration') + 1))
    const rows = section.split('\n').filter((line) => line.startsWith('| `'))
    const documented = new Set(rows.map((row) => /^\| `([^`]+)`/.exec(row)?.[1]))
    const keys = [...keyPaths(configFileSchema), ...keyPaths(agentSettingsSchema, 'agent'), ...keyPaths(permissionSettingsSchema, 'permissions')]
    expect(keys.length).toBeGreaterThan(20)
    expect(keys.filter((key) => !documented.has(key))).toEqual([])
  })

  it('links only to files inside the repository', () => {
    const targets = [...readme.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1] ?? '')
    const outside = targets.filter((target) => /^[a-z]+:/i.test(target) || !resolve(root, target).startsWith(`${root}/`) || !existsSync(resolve(root, target)))
    expect(outside).toEqual([])
    expect(readme).not.toMatch(/\.\.\/[\w.-]/)
  })
})

describe('npm run demo', () => {
  it('explains what to look at and removes its temporary directory', async () => {
    tree = await tempTree({})
    const result = await spawnCollect(process.execPath, [join(root, 'scripts/demo.mjs')], { cwd: root, env: testEnv(tree.root, { TMPDIR: tree.root }), timeoutMs: 60_000 })
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/== 1\. dsh run: the final answer ==\n {3}The scripted model reads/)
    expect(result.stdout).toContain('Look for the "user (workspace-instructions)" messages:')
    expect(result.stdout).toContain('Instructions from: AGENTS.md')
    expect(result.stdout).toMatch(new RegExp(`\\nRemoved ${tree.root}/dsh-demo-\\w+\\.\\n$`))
    expect(readdirSync(tree.root)).toEqual([])
  })
})
