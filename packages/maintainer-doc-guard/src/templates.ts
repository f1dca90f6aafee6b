/**
 * The shared template store, `$DSH_HOME/maintainer-doc-guard-templates/<name>.md`: named copies
 * of a `conventions.md` that can be applied to any workspace, including one whose conventions
 * already exist (which the seed never touches). Names are one safe path segment
 * (`[A-Za-z0-9][A-Za-z0-9._-]{0,63}`, a trailing `.md` ignored).
 */
import { join } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'
import { GuardError } from './guard-error.ts'
import { MAX_DOCUMENT_BYTES } from './document-probe.ts'
import { requireUnlinked, writeConfined } from './operator-files.ts'

/** Folder of the store under `$DSH_HOME`. */
export const TEMPLATES_FOLDER = 'maintainer-doc-guard-templates'

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/u

/** The file name of a template, or a typed error for an unsafe name. */
export function templateFile(name: string): string {
  const stem = name.endsWith('.md') ? name.slice(0, -3) : name
  if (!NAME.test(stem) || stem.includes('..')) throw new GuardError('DOCS_BAD_TEMPLATE_NAME', `template name "${name}": use letters, digits, ".", "_" or "-" (at most 64, starting with a letter or digit)`)
  return `${stem}.md`
}

/** The store over one home. */
export class TemplateStore {
  readonly folder: string
  readonly #fs: FileSystemPort

  constructor(fs: FileSystemPort, dshHome: string) {
    this.#fs = fs
    this.folder = join(dshHome, TEMPLATES_FOLDER)
  }

  /** Template names, sorted ([] when the store does not exist yet). */
  async list(): Promise<string[]> {
    if ((await this.#fs.stat(this.folder))?.type !== 'directory') return []
    const entries = await this.#fs.listDir(this.folder)
    return entries.filter((entry) => entry.type === 'file' && entry.name.endsWith('.md')).map((entry) => entry.name.slice(0, -3))
  }

  /** Saves `content` as template `name` (replacing one of the same name). */
  async save(name: string, content: string): Promise<string> {
    const path = join(this.folder, templateFile(name))
    await writeConfined(this.#fs, { base: this.folder, path, content })
    return path
  }

  /** The content of template `name`. */
  async read(name: string): Promise<string> {
    const path = join(this.folder, templateFile(name))
    if ((await this.#fs.stat(path))?.type !== 'file') throw new GuardError('DOCS_UNKNOWN_TEMPLATE', `no template "${name}" in ${this.folder}`)
    await requireUnlinked(this.#fs, this.folder, path)
    return (await this.#fs.readText(path, { maxBytes: MAX_DOCUMENT_BYTES })).text
  }
}
