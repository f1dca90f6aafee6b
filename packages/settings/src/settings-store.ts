/**
 * The settings logic, independent of the plugin host: namespaced registrations over one YAML file,
 * validated updates written atomically, and hot reload that keeps the last good values when an
 * edit is invalid.
 *
 * Every file operation (reload or update) runs through one queue, so an update's
 * read-modify-write never interleaves with a reload, and the state always reflects the last
 * operation's view of the file. Across processes, an update's read-modify-write holds the lock
 * file `settings.yaml.lock` (the runtime's `withFileLock`), so two `dsh docs switches` at once
 * both land.
 */
import { mkdir } from 'node:fs/promises'
import { basename, dirname } from 'node:path'
import { parseDocument, Document } from 'yaml'
import type { ZodType, z } from 'zod'
import { describeWriteError, withFileLock } from '@dsh/runtime'
import { applyPatch } from './apply-patch.ts'
import { writeFileAtomic } from './atomic-write.ts'
import { documentSections } from './document-sections.ts'
import { SettingsError } from './errors.ts'
import { watchFileChanges, type FileWatcher } from './file-watcher.ts'
import { assertNamespaceName } from './namespace-name.ts'
import { readSettingsFile, readSettingsFileSync, type SettingsFileState } from './read-settings-file.ts'
import { Registration } from './registration.ts'
import { isPlainRecord, resolveSection } from './resolve-section.ts'
import type { RegisterOptions, SettingsLogger, SettingsScope, SettingsService } from './types.ts'

/** Options of {@link SettingsStore}. */
export interface SettingsStoreOptions {
  /** Absolute path of the settings file, normally `$DSH_HOME/settings.yaml`. */
  readonly file: string
  /** Receives one line per problem (invalid edit, unreadable file, throwing watcher). */
  readonly logger: SettingsLogger
  /** Quiet period coalescing a burst of file events into one reload. Default 50 ms. */
  readonly debounceMs?: number
  /** Stat polling interval while the file's directory cannot be watched. Default 500 ms. */
  readonly pollIntervalMs?: number
}

/** Namespaced settings persisted to one YAML file and hot-reloaded from it. */
export class SettingsStore implements SettingsService {
  private readonly file: string
  private readonly label: string
  private readonly logger: SettingsLogger
  private readonly registrations = new Map<string, Registration>()
  private readonly watcher: FileWatcher
  /** Sections of the last usable file content (empty when the file is absent). */
  private sections: ReadonlyMap<string, unknown> = new Map()
  /** Text last ingested: `null` for an absent file, `undefined` when unknown (never read, unreadable). */
  private lastText: string | null | undefined
  /** Last "could not read" line, so a persistently unreadable file is reported once. */
  private lastUnavailable: string | undefined
  private queue: Promise<void> = Promise.resolve()
  private closed = false

  /** Reads the file synchronously (so `register` answers at once) and starts watching it. */
  constructor(options: SettingsStoreOptions) {
    this.file = options.file
    this.label = basename(options.file)
    this.logger = options.logger
    this.watcher = watchFileChanges({
      file: options.file,
      debounceMs: options.debounceMs ?? 50,
      pollIntervalMs: options.pollIntervalMs ?? 500,
      onChange: () => void this.reload(),
    })
    this.ingest(readSettingsFileSync(options.file), 'using base values')
  }

  /** See `SettingsService.register`. */
  register<S extends ZodType>(namespace: string, schema: S, options?: RegisterOptions<z.infer<S>>): SettingsScope<z.infer<S>> {
    if (this.closed) throw new SettingsError('SETTINGS_CLOSED', `cannot register ${namespace}: the settings store is closed`)
    assertNamespaceName(namespace)
    if (this.registrations.has(namespace)) {
      throw new SettingsError('SETTINGS_NAMESPACE_TAKEN', `settings namespace ${namespace} is already registered`)
    }
    const base = options?.base
    let resolution = resolveSection(schema, namespace, base, this.sections.get(namespace))
    let problem: string | undefined
    if (!resolution.ok) {
      problem = resolution.problem
      resolution = resolveSection(schema, namespace, base, undefined)
      if (!resolution.ok) {
        throw new SettingsError('SETTINGS_INVALID_BASE', `settings namespace ${namespace}: invalid base values: ${resolution.problem}`)
      }
      this.logger(`${this.label}: ${problem}; using base values`)
    }
    const registration = new Registration(namespace, schema, base, resolution.value, problem, this.logger)
    this.registrations.set(namespace, registration)
    return {
      get: () => registration.current,
      watch: (listener) => registration.watch(listener),
      update: (patch) => this.update(registration, patch),
      dispose: () => {
        registration.dispose()
        if (this.registrations.get(namespace) === registration) this.registrations.delete(namespace)
      },
    }
  }

  /** Re-reads the file now and applies it (the watcher does this on its own after a change). */
  reload(): Promise<void> {
    return this.enqueue(async () => {
      const state = await readSettingsFile(this.file)
      if (this.closed) return
      try {
        this.ingest(state)
      } catch (error) {
        // Swallowed after logging: a reload is fire-and-forget from the watcher, and a schema whose
        // refinement throws must not become an unhandled rejection; values stay as they were.
        this.logger(`${this.label}: reload failed: ${error instanceof Error ? error.message : String(error)}`)
      }
    })
  }

  /** Stops watching the file; later updates and registrations fail with `SETTINGS_CLOSED`. */
  close(): void {
    if (this.closed) return
    this.closed = true
    this.watcher.close()
  }

  private update<S extends ZodType>(registration: Registration<S>, patch: Partial<z.infer<S>>): Promise<z.infer<S>> {
    const { namespace } = registration
    return this.enqueue(async () => {
      if (this.closed || registration.disposed) {
        throw new SettingsError('SETTINGS_CLOSED', `cannot update ${namespace}: its settings scope is closed`)
      }
      return this.locked(namespace, () => this.readModifyWrite(registration, patch))
    })
  }

  /** Runs `work` under the cross-process lock of the settings file. */
  private async locked<T>(namespace: string, work: () => Promise<T>): Promise<T> {
    try {
      await mkdir(dirname(this.file), { recursive: true })
    } catch (error) {
      // Not swallowed: rethrown as the package's typed error naming the directory.
      throw new SettingsError('SETTINGS_WRITE_FAILED', `cannot update ${namespace}: cannot create ${dirname(this.file)}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
    }
    try {
      return await withFileLock(
        {
          file: `${this.file}.lock`,
          busy: (holder, file) => new SettingsError('SETTINGS_BUSY', `cannot update ${namespace}: ${this.label} is being changed by ${holder} (lock ${file}); try again, or delete the lock file if no dsh is running`),
          takenOver: (file) => new SettingsError('SETTINGS_BUSY', `cannot update ${namespace}: the lock ${file} was taken over meanwhile; nothing was written, try again`),
        },
        work,
      )
    } catch (error) {
      // Not swallowed: a failure of the lock itself (not the change, whose errors are already
      // typed) is rethrown as the package's typed error naming the lock file.
      if (error instanceof SettingsError) throw error
      throw new SettingsError('SETTINGS_WRITE_FAILED', `cannot update ${namespace}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
    }
  }

  private async readModifyWrite<S extends ZodType>(registration: Registration<S>, patch: Partial<z.infer<S>>): Promise<z.infer<S>> {
    const { namespace } = registration
    const state = await readSettingsFile(this.file)
    if (state.kind === 'unavailable') {
      throw new SettingsError('SETTINGS_FILE_UNAVAILABLE', `cannot update ${namespace}: ${this.label} could not be read: ${state.error.message}`, {
        cause: state.error,
      })
    }
    const document = state.kind === 'present' ? state.document : new Document({})
    const current = documentSections(document)
    if (!current.ok) {
      throw new SettingsError('SETTINGS_FILE_INVALID', `cannot update ${namespace}: ${this.label}: ${current.problem}; fix the file first`)
    }
    const fields = definedFields(patch)
    const section = current.sections.get(namespace)
    const merged = isPlainRecord(section) ? { ...section, ...fields } : fields
    const resolution = resolveSection(registration.schema, namespace, registration.base, merged)
    if (!resolution.ok) {
      throw new SettingsError('SETTINGS_INVALID_VALUE', `${this.label}: ${resolution.problem}; nothing was written`)
    }
    applyPatch(document, namespace, fields)
    const text = document.toString({ flowCollectionPadding: false })
    try {
      await writeFileAtomic(this.file, text)
    } catch (error) {
      // Not swallowed: rethrown as the package's typed error, with the fs error as its cause.
      throw new SettingsError('SETTINGS_WRITE_FAILED', `cannot update ${namespace}: writing ${this.file} failed: ${describeWriteError(error)}; the file is unchanged`, { cause: error })
    }
    this.ingest({ kind: 'present', document: parseDocument(text), text })
    return registration.current
  }

  /** Applies what was read: valid sections update (and notify) their namespaces, problems are logged. */
  private ingest(state: SettingsFileState, fallback = 'keeping previous values'): void {
    if (state.kind === 'unavailable') {
      this.lastText = undefined
      const line = `${this.label}: could not be read (${state.error.message}); ${fallback}`
      if (line !== this.lastUnavailable) this.logger(line)
      this.lastUnavailable = line
      return
    }
    this.lastUnavailable = undefined
    const text = state.kind === 'present' ? state.text : null
    if (text === this.lastText) return
    this.lastText = text
    const result = state.kind === 'present' ? documentSections(state.document) : { ok: true as const, sections: new Map() }
    if (!result.ok) {
      this.logger(`${this.label}: ${result.problem}; ${fallback}`)
      return
    }
    this.sections = result.sections
    for (const registration of this.registrations.values()) {
      const resolution = resolveSection(registration.schema, registration.namespace, registration.base, this.sections.get(registration.namespace))
      if (resolution.ok) registration.accept(resolution.value)
      else if (registration.reject(resolution.problem)) this.logger(`${this.label}: ${resolution.problem}; keeping previous values`)
    }
  }

  private enqueue<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.queue.then(operation)
    this.queue = run.then(
      () => undefined,
      () => undefined, // Swallowed here only: the queue orders work, the caller sees the failure via `run`.
    )
    return run
  }
}

function definedFields(patch: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined))
}
