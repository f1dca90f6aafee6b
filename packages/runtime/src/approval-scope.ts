/**
 * What an "allow always" answer to a `bash` question may cover. A simple command offers its own
 * prefix (`git status`); a compound one (`a && b`, `a | b`, `a; b`) offers the prefixes of its
 * parts together (`git status` and `npm test`), never the whole tool: the whole tool is only
 * offered once the same tool asked before in the session (the front ends count). A command whose
 * parts this plain reading cannot separate safely (quotes, escapes, substitution, redirection,
 * here-documents) offers no prefix at all; the permission rules would not allow it anyway.
 */
import type { ApprovalScope } from '@dsh/contracts'
import { suggestedPrefix } from './approval-memory.ts'

/** Syntax that makes a plain split at the control operators unsafe. */
const unreadable = /["'\\`<>(){}]|\$\(/

/** The control operators a compound command is split at (longest first). */
const operators = /\|\||&&|\|&|[;|&\n\r]/

/** The distinct prefixes of a compound command's parts, or undefined when one part has none. */
export function partPrefixes(command: string): string[] | undefined {
  if (unreadable.test(command)) return undefined
  const parts = command.split(operators).map((part) => part.trim()).filter((part) => part !== '')
  if (parts.length < 2) return undefined
  const prefixes: string[] = []
  for (const part of parts) {
    const prefix = suggestedPrefix(part)
    if (prefix === undefined) return undefined
    if (!prefixes.includes(prefix)) prefixes.push(prefix)
  }
  return prefixes
}

/**
 * The narrow "always" scope for a `bash` command: its prefix, the prefixes of its parts, or
 * undefined (only "once" and, when asked before, the whole tool are on offer).
 */
export function commandScope(command: string): ApprovalScope | undefined {
  const prefix = suggestedPrefix(command)
  if (prefix !== undefined) return { kind: 'command-prefix', prefix }
  const prefixes = partPrefixes(command)
  if (prefixes === undefined) return undefined
  if (prefixes.length === 1 && prefixes[0] !== undefined) return { kind: 'command-prefix', prefix: prefixes[0] }
  return { kind: 'command-prefixes', prefixes }
}

/** One line naming what a scope covers (`"git status …", "npm test …"`); `tool` for a whole-tool scope. */
export function scopeLabel(scope: ApprovalScope, tool: string): string {
  switch (scope.kind) {
    case 'tool':
      return tool
    case 'command-prefix':
      return `"${scope.prefix} …"`
    case 'command-prefixes':
      return scope.prefixes.map((prefix) => `"${prefix} …"`).join(', ')
    default: {
      const unreachable: never = scope
      throw new Error(`unknown approval scope ${JSON.stringify(unreachable)}`)
    }
  }
}
