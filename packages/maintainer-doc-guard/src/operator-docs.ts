/**
 * Operator documents are read-only to the model: a write, edit, `doc_write`, destructive tool or
 * shell statement whose target is one of the operator's documents (`plan.md`, `conventions.md`
 * inside a documents folder: the workspace level, any session's folder, the project root's, or
 * an absolute document entry), or a folder that holds them (`rm -rf .dsh-maintainer-doc-guard`,
 * `cp plan.md .dsh-maintainer-doc-guard/`), is denied outright, with no precedent escape,
 * pointing the model to its own ledger. The operator lifts the rule with
 * `gate.operatorDocsReadOnly: false` or the `operatorDocsReadOnly` switch.
 */
import { isAbsolute, join, normalize } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'
import { hasTail } from './document-paths.ts'
import { isOperatorDocument, OPERATOR_TAILS } from './document-roles.ts'
import { matchForm } from './guarded-area.ts'
import type { ResolvedConfig } from './resolve-config.ts'

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')

/** A predicate recognising operator documents under `config`. */
export function operatorDocMatcher(config: Pick<ResolvedConfig, 'docs' | 'docsDir'>): (path: string) => boolean {
  const names = config.docs.filter(isOperatorDocument)
  const absolute = new Set(names.filter((name) => isAbsolute(name)).map((name) => matchForm(normalize(name))))
  const relative = names.filter((name) => !isAbsolute(name)).map((name) => matchForm(name))
  const dir = escapeRegExp(matchForm(config.docsDir).replace(/\/+$/u, ''))
  const pattern = relative.length === 0 ? undefined : new RegExp(`(?:^|/)${dir}/(?:[^/]+/)?(?:${relative.map(escapeRegExp).join('|')})$`, 'u')
  return (path) => {
    const form = matchForm(path)
    return absolute.has(form) || (pattern?.test(form) ?? false)
  }
}

/** The document a `doc_write`-style tool names through `name` / `doc` / `document`, when it is an operator document. */
export function namedOperatorDocument(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined
  for (const key of ['name', 'doc', 'document']) {
    const value: unknown = Reflect.get(args, key)
    if (typeof value === 'string' && OPERATOR_TAILS.some((tail) => hasTail(value, tail))) return value
  }
  return undefined
}

/** True for tools that may write a document. */
export function writesDocuments(tool: string, gateTools: readonly string[]): boolean {
  return tool === 'write' || tool === 'edit' || tool.endsWith('doc_write') || gateTools.includes(tool)
}

/** An operator document a call would change: the document itself, or a folder holding such documents. */
export interface OperatorTarget {
  readonly path: string
  readonly folder: boolean
}

/** The first of `paths` that is an operator document or an existing folder that can hold one. */
export async function operatorTarget(fs: FileSystemPort, paths: readonly string[], isOperatorDoc: (path: string) => boolean, signal?: AbortSignal): Promise<OperatorTarget | undefined> {
  const document = paths.find(isOperatorDoc)
  if (document !== undefined) return { path: document, folder: false }
  for (const path of paths) {
    if (!OPERATOR_TAILS.some((tail) => isOperatorDoc(join(path, tail)))) continue
    if ((await fs.stat(path, signal))?.type === 'directory') return { path, folder: true }
  }
  return undefined
}
