/**
 * What an "allow always" answer to a `bash` question may cover. A simple command offers its own
 * prefix (`git status`); a compound one (`a && b`, `a | b`, `a; b`) offers the prefixes of its
 * parts together (`git status` and `npm test`), never the whole tool: the whole tool is only
 * offered once the same tool asked before in the session (the front ends count). Shell syntax
 * around the parts is no part (`if a; then b; fi` offers the prefixes of `a` and `b`), and a part
 * whose program runs other commands (`timeout`, `sudo`, `xargs`, …) has none. A command whose
 * parts this plain reading cannot separate safely (quotes, escapes, substitution, redirection,
 * here-documents) offers no prefix at all; the permission rules would not allow it anyway. A
 * `web_fetch` question offers its URL's host (`fetchScope`), and the whole tool only from its
 * second question, as a compound command does.
 */
import type { ApprovalScope, ToolExecution } from '@dsh/contracts'
import { suggestedPrefix } from './approval-memory.ts'
import { fetchHost, stringArgument } from './call-arguments.ts'
import { commandPart } from './command-words.ts'

/** Syntax that makes a plain split at the control operators unsafe. */
const unreadable = /["'\\`<>(){}]|\$\(/

/** The control operators a compound command is split at (longest first). */
const operators = /\|\||&&|\|&|[;|&\n\r]/

/**
 * The distinct prefixes of a compound command's parts, or undefined when one part has none. Parts
 * that run nothing (`fi`, `done`, a `for i in 1 2 3` header: command-words.ts) need no prefix;
 * the reserved words before a part's program are not in its prefix (`then cat x` → `cat`).
 */
export function partPrefixes(command: string): string[] | undefined {
  if (unreadable.test(command)) return undefined
  const parts = command.split(operators).map((part) => part.trim()).filter((part) => part !== '')
  if (parts.length < 2) return undefined
  const prefixes: string[] = []
  for (const part of parts) {
    const read = commandPart(part)
    if (read.kind === 'nothing') continue
    const prefix = read.kind === 'command' ? suggestedPrefix(read.text) : undefined
    if (prefix === undefined) return undefined
    if (!prefixes.includes(prefix)) prefixes.push(prefix)
  }
  return prefixes.length === 0 ? undefined : prefixes
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

/**
 * The host an "always" answer to a `web_fetch` question covers: the URL's host in lower case
 * without a trailing dot; undefined for anything that is not an http(s) URL with a host.
 */
export function fetchScope(url: string): ApprovalScope | undefined {
  const host = fetchHost(url)
  return host === undefined ? undefined : { kind: 'domain', host }
}

/** What the "always" answers of one question cover: the narrow scope (when any) and whether the whole tool is offered besides. */
export interface AlwaysOffers {
  readonly always?: ApprovalScope
  readonly alwaysTool: boolean
}

/**
 * The "always" answers a question about `execution` offers (the web page's and the editor's; the
 * chat words its own): a simple command's prefix alone; a compound command's part prefixes, or a
 * fetch's host, with the whole tool besides once the tool asked before (`askedBefore` counts the
 * session's earlier questions about it); any other tool whole.
 */
export function alwaysOffers(execution: ToolExecution, askedBefore: number): AlwaysOffers {
  if (execution.name === 'web_fetch') {
    const url = stringArgument(execution, 'url')
    const host = url === undefined ? undefined : fetchScope(url)
    if (host !== undefined) return { always: host, alwaysTool: askedBefore > 0 }
  }
  const command = execution.name === 'bash' ? stringArgument(execution, 'command') : undefined
  if (command === undefined) return { always: { kind: 'tool' }, alwaysTool: false }
  const scope = commandScope(command)
  if (scope?.kind === 'command-prefix') return { always: scope, alwaysTool: false }
  return { ...(scope === undefined ? {} : { always: scope }), alwaysTool: askedBefore > 0 }
}

/** One line naming what a scope covers (`"git status …", "npm test …"`, `fetches from HOST`); `tool` for a whole-tool scope. */
export function scopeLabel(scope: ApprovalScope, tool: string): string {
  switch (scope.kind) {
    case 'tool':
      return tool
    case 'command-prefix':
      return `"${scope.prefix} …"`
    case 'command-prefixes':
      return scope.prefixes.map((prefix) => `"${prefix} …"`).join(', ')
    case 'domain':
      return `fetches from ${scope.host}`
    default: {
      const unreachable: never = scope
      throw new Error(`unknown approval scope ${JSON.stringify(unreachable)}`)
    }
  }
}
