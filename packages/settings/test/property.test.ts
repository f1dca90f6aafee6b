// Property: whatever sequence of valid and invalid updates, external edits, corruptions and
// deletions happens, the effective value equals the last valid state of the file merged over the base.
import { rm } from 'node:fs/promises'
import * as fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { z } from 'zod'
import { replaceFile, sandbox, type Sandbox } from './helpers.ts'

const Schema = z.object({ n: z.number().int(), flag: z.boolean(), name: z.string() })
type Value = z.infer<typeof Schema>
const BASE: Value = { n: 0, flag: false, name: 'base' }
const NS = 'prop-test'

const anyN = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.constantFrom<unknown>('x', 1.5, null, true))
const anyFlag = fc.oneof(fc.boolean(), fc.constantFrom<unknown>('maybe', 0, null))
const anyName = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom<unknown>(7, false, ['a']))
const section = fc.record({ n: anyN, flag: anyFlag, name: anyName }, { requiredKeys: [] })

type Op =
  | { readonly kind: 'update'; readonly patch: Record<string, unknown> }
  | { readonly kind: 'write'; readonly section: Record<string, unknown> }
  | { readonly kind: 'corrupt' }
  | { readonly kind: 'delete' }

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: section.map((patch) => ({ kind: 'update' as const, patch })), weight: 4 },
  { arbitrary: section.map((value) => ({ kind: 'write' as const, section: value })), weight: 2 },
  { arbitrary: fc.constant({ kind: 'corrupt' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'delete' as const }), weight: 1 },
)

/** The spec's validity rule, written independently of the schema. */
function isValid(candidate: Record<string, unknown>): candidate is Value {
  return Number.isInteger(candidate.n) && typeof candidate.flag === 'boolean' && typeof candidate.name === 'string'
}

let box: Sandbox
beforeEach(async () => {
  box = await sandbox()
})
afterEach(() => box.dispose())

describe('effective value', () => {
  it('always equals the last valid state', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), async (ops) => {
        const { store, file } = box.open({ relative: `run-${run++}/settings.yaml` })
        const scope = store.register(NS, Schema, { base: BASE })
        let disk: Record<string, unknown> | 'corrupt' = {}
        let lastValid: Value = BASE
        try {
          for (const step of ops) {
            if (step.kind === 'update') {
              const attempt = scope.update(step.patch)
              if (disk === 'corrupt') {
                await expect(attempt).rejects.toMatchObject({ code: 'SETTINGS_FILE_INVALID' })
              } else {
                const candidate = { ...BASE, ...disk, ...step.patch }
                if (isValid(candidate)) {
                  await expect(attempt).resolves.toEqual(candidate)
                  disk = { ...disk, ...step.patch }
                  lastValid = candidate
                } else {
                  await expect(attempt).rejects.toMatchObject({ code: 'SETTINGS_INVALID_VALUE' })
                }
              }
            } else {
              if (step.kind === 'write') await replaceFile(file, stringify({ [NS]: step.section }))
              if (step.kind === 'corrupt') await replaceFile(file, `${NS}:\n  n: [1, 2\n`)
              if (step.kind === 'delete') await rm(file, { force: true })
              await store.reload()
              disk = step.kind === 'corrupt' ? 'corrupt' : step.kind === 'delete' ? {} : step.section
              const candidate = disk === 'corrupt' ? undefined : { ...BASE, ...disk }
              if (candidate !== undefined && isValid(candidate)) lastValid = candidate
            }
            expect(scope.get()).toEqual(lastValid)
          }
        } finally {
          store.close()
        }
      }),
      { numRuns: 60 },
    )
  })
})
