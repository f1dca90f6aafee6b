/**
 * Reads what a hook printed: stdout that starts with `{` is its JSON decision (Claude Code's
 * fields); anything else is plain text. Invalid JSON is reported, never thrown.
 */
import type { HookJsonOutput } from './hook-types.ts'

/** The stdout of a hook, read. */
export type ReadOutput = { readonly kind: 'json'; readonly json: HookJsonOutput } | { readonly kind: 'text'; readonly text: string } | { readonly kind: 'invalid'; readonly problem: string }

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

/** The entries whose value is defined. */
function pick<T>(entries: readonly (readonly [string, T | undefined])[]): Record<string, T> {
  return Object.fromEntries(entries.filter((entry): entry is readonly [string, T] => entry[1] !== undefined))
}

/** Picks the known fields with the right types; others are ignored. */
function decisionOf(value: Readonly<Record<string, unknown>>): HookJsonOutput {
  const specific = isRecord(value['hookSpecificOutput']) ? value['hookSpecificOutput'] : undefined
  return {
    ...pick<string | boolean>([
      ['continue', typeof value['continue'] === 'boolean' ? value['continue'] : undefined],
      ['stopReason', str(value['stopReason'])],
      ['systemMessage', str(value['systemMessage'])],
      ['decision', str(value['decision'])],
      ['reason', str(value['reason'])],
    ]),
    ...(specific === undefined
      ? {}
      : {
          hookSpecificOutput: {
            ...pick<unknown>([
              ['permissionDecision', str(specific['permissionDecision'])],
              ['permissionDecisionReason', str(specific['permissionDecisionReason'])],
              ['additionalContext', str(specific['additionalContext'])],
              ['updatedInput', specific['updatedInput']],
            ]),
          },
        }),
  }
}

/** Reads stdout. */
export function readOutput(stdout: string): ReadOutput {
  const trimmed = stdout.trim()
  if (!trimmed.startsWith('{')) return { kind: 'text', text: trimmed }
  let value: unknown
  try {
    value = JSON.parse(trimmed)
  } catch (error) {
    // Not JSON after all: the caller warns and treats the hook as having said nothing.
    return { kind: 'invalid', problem: `its output starts with { but is not JSON (${error instanceof Error ? error.message : String(error)})` }
  }
  if (!isRecord(value)) return { kind: 'invalid', problem: 'its JSON output is not an object' }
  return { kind: 'json', json: decisionOf(value) }
}
