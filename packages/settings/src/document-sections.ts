/**
 * Interprets a parsed settings document as a map from namespace to raw section, or explains in
 * one line why it cannot (bad YAML, a top level that is not a mapping).
 */
import { isMap, type Document } from 'yaml'
import { isPlainRecord } from './resolve-section.ts'

/** The namespaces of a usable document, or the reason it is unusable. */
export type SectionsResult =
  | {
      /** The document is usable. */
      readonly ok: true
      /** Raw (unvalidated) section per top-level key, including namespaces nobody registered. */
      readonly sections: ReadonlyMap<string, unknown>
    }
  | {
      /** The document is unusable. */
      readonly ok: false
      /** One-line reason, without the file name. */
      readonly problem: string
    }

/** Reads the top-level sections of `document`. */
export function documentSections(document: Document): SectionsResult {
  const [first, ...rest] = document.errors
  if (first !== undefined) {
    const more = rest.length > 0 ? ` (and ${rest.length} more YAML error${rest.length === 1 ? '' : 's'})` : ''
    return { ok: false, problem: `invalid YAML: ${firstLine(first.message)}${more}` }
  }
  if (document.contents === null) return { ok: true, sections: new Map() }
  if (!isMap(document.contents)) {
    return { ok: false, problem: 'the top level must be a mapping of namespaces' }
  }
  let plain: unknown
  try {
    plain = document.toJS()
  } catch (error) {
    // Swallowed into the result: toJS throws on e.g. excessive alias expansion, which is a bad edit.
    return { ok: false, problem: `unusable YAML: ${firstLine(error instanceof Error ? error.message : String(error))}` }
  }
  if (!isPlainRecord(plain)) return { ok: false, problem: 'the top level must be a mapping of namespaces' }
  return { ok: true, sections: new Map(Object.entries(plain)) }
}

function firstLine(message: string): string {
  return (message.split('\n', 1)[0] ?? '').replace(/:\s*$/, '')
}
