/**
 * Text of the generated files: instruction files (Markdown guidance of a chosen size, made of
 * headings and bullet rules assembled from small word lists) and TypeScript-looking source files.
 * Everything is derived from the caller's seeded stream, so the same seed gives the same bytes.
 */
import type { SeededRandom } from './seeded-random.ts'

const VERBS = ['Prefer', 'Avoid', 'Always run', 'Never commit', 'Document', 'Keep', 'Review', 'Test', 'Pin', 'Log']
const OBJECTS = [
  'pure functions in the domain layer',
  'default exports in library code',
  'the package linter before pushing',
  'generated clients or lockfile churn',
  'every public type with a doc comment',
  'files under 300 lines',
  'migrations with a second reviewer',
  'error paths with a regression test',
  'exact dependency versions',
  'structured fields instead of string concatenation',
  'feature flags behind the config service',
  'snapshot updates together with the change that caused them',
]
const REASONS = [
  'because the release tooling depends on it',
  'so that reviews stay small',
  'since CI enforces it on the merge queue',
  'to keep cold starts predictable',
  'as agreed in the last architecture review',
  'which keeps the on-call runbook accurate',
]
const SECTIONS = ['Build and test', 'Code style', 'Architecture', 'Pull requests', 'Security', 'Performance', 'Dependencies', 'Observability']

/** Markdown guidance for directory `label`, at least `bytes` UTF-8 bytes long (ASCII only). */
export function instructionText(random: SeededRandom, label: string, bytes: number): string {
  const lines = [`# Guidelines for ${label}`, '', 'These rules apply to everything below this directory unless a deeper file says otherwise.', '']
  let size = lines.join('\n').length
  while (size < bytes) {
    const section = [`## ${random.pick(SECTIONS)}`, '']
    const rules = random.between(3, 6)
    for (let i = 0; i < rules; i++) section.push(`- ${random.pick(VERBS)} ${random.pick(OBJECTS)}, ${random.pick(REASONS)}.`)
    section.push('')
    lines.push(...section)
    size += section.join('\n').length + 1
  }
  return `${lines.join('\n').trimEnd()}\n`
}

const IDENTIFIERS = ['config', 'session', 'request', 'payload', 'cursor', 'handler', 'record', 'buffer', 'token', 'result']

/** A small TypeScript module named after `name`. */
export function sourceText(random: SeededRandom, name: string): string {
  const lines = [`// ${name}: generated benchmark source file.`, `import { strict as assert } from 'node:assert'`, '']
  const functions = random.between(2, 6)
  for (let i = 0; i < functions; i++) {
    const id = `${random.pick(IDENTIFIERS)}${i}`
    lines.push(`export function ${id}(input: number): number {`, `  assert(Number.isFinite(input))`, `  return input * ${random.between(2, 97)} + ${random.below(1000)}`, '}', '')
  }
  return lines.join('\n')
}
