/**
 * The operator service: one API for every operator front end (`dsh docs`, `/docs` in the chat,
 * the web panel). Every document path is derived from a session id (the session's stored header
 * gives its cwd) and the config, never from a path the caller names. Saves are atomic,
 * confined, size-capped like reads and compare-and-swap under a lock (document-save.ts); templates live in `$DSH_HOME/maintainer-doc-guard-templates/`; switches and the ten
 * live settings are shared through `$DSH_HOME/settings.yaml` when a settings scope is attached;
 * counters are those of the guard running in this process.
 */
import { join } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'
import type { SettingsScope } from '@dsh/settings'
import type { Counters } from './counters.ts'
import { isHumanOnly, isLedger, isOperatorDocument } from './document-roles.ts'
import { GuardError } from './guard-error.ts'
import { requireReadableSize, saveDocument } from './document-save.ts'
import { liveBase, LIVE_FIELDS, type LiveSettings } from './live-settings.ts'
import { previewSweep, removeOrphans } from './orphan-sweep.ts'
import type { DocumentEntry, OperatorService, SettingsView } from './operator-types.ts'
import type { ResolvedConfig } from './resolve-config.ts'
import type { SessionDirectory } from './session-directory.ts'
import { ensureDocuments, requireDocument, sessionSnapshot, writeTarget } from './session-documents.ts'
import type { Switches } from './switches.ts'
import { TemplateStore } from './templates.ts'

/** Options of {@link createOperatorService}. */
export interface OperatorServiceOptions {
  /** The guard's composition config. */
  readonly config: ResolvedConfig
  /** A filesystem port of the operator's own (writable roots are opened per save). */
  readonly fs: FileSystemPort
  readonly sessions: SessionDirectory
  readonly dshHome: string
  readonly switches: Switches
  readonly counters?: Counters
  /** The ten live settings, when a settings service is available. */
  readonly liveSettings?: () => SettingsScope<LiveSettings> | undefined
  /** Session ids running in this process (never swept). */
  readonly liveSessions?: () => ReadonlySet<string>
  /** Called with a document's path before a save creates or writes anything (the CLI tells its shell sandbox the write is dsh's own). Must not throw. */
  readonly beforeSave?: (path: string) => void
}

const roleOf = (name: string): DocumentEntry['role'] => (isHumanOnly(name) ? 'people' : isLedger(name) ? 'ledger' : isOperatorDocument(name) ? 'operator' : 'listed')

/** Creates the service. */
export function createOperatorService(options: OperatorServiceOptions): OperatorService {
  const { config, fs, sessions } = options
  const store = new TemplateStore(fs, options.dshHome)
  const snapshot = (sessionId: string) => sessionSnapshot(fs, sessions, config, sessionId)
  const settingsView = (scope: SettingsScope<LiveSettings>): SettingsView => {
    const value = scope.get()
    const base = liveBase(config)
    return { value, base, overridden: LIVE_FIELDS.filter((field) => value[field] !== base[field]) }
  }
  const sweepContext = async (sessionId: string) => {
    const folder = join((await snapshot(sessionId)).place.cwd, config.docsDir)
    const real = (await fs.resolve(folder, { cwd: folder })).path
    if (real !== folder) throw new GuardError('DOCS_UNSAFE_PATH', `${folder} is a link to ${real}; refusing to sweep through it`)
    return { fs, sessions, folder, docs: config.docs, live: options.liveSessions?.() ?? new Set<string>() }
  }
  const service: OperatorService = {
    async documents(sessionId) {
      const first = await snapshot(sessionId)
      const created = await ensureDocuments(fs, first, config)
      const view = created.length === 0 ? first : await snapshot(sessionId)
      const documents = view.probes.map((probe): DocumentEntry => ({
        name: probe.name,
        role: roleOf(probe.name),
        ...(probe.found === undefined ? {} : { level: probe.found.level, path: probe.found.path }),
        chars: probe.found?.text.length ?? 0,
        saveTo: writeTarget(view, config, probe.name, 'auto').path,
        saveTargets: { session: writeTarget(view, config, probe.name, 'session').path, workspace: writeTarget(view, config, probe.name, 'workspace').path },
        problems: probe.problems,
      }))
      const id = view.place.sessionId
      return { sessionId: id, cwd: view.place.cwd, folder: join(view.place.cwd, config.docsDir, id), workspaceFolder: join(view.place.cwd, config.docsDir), created, documents }
    },
    async read(sessionId, name) {
      requireDocument(config, name)
      const probe = (await snapshot(sessionId)).probes.find((item) => item.name === name)
      const found = probe?.found
      const problem = probe?.problems[0]
      // A document that exists but cannot be used is not blank: say so instead of showing nothing.
      if (found === undefined && problem !== undefined) throw new GuardError('DOCS_UNUSABLE_DOCUMENT', `${name}: ${problem.path} is ${problem.reason}; fix or remove it by hand`)
      return { name, content: found?.text ?? '', ...(found === undefined ? {} : { level: found.level, path: found.path }) }
    },
    async write(sessionId, name, content, level = 'auto', writeOptions = {}) {
      requireDocument(config, name)
      requireReadableSize(name, content)
      const view = await snapshot(sessionId)
      const target = writeTarget(view, config, name, level)
      // Never replace what could not be read (a file too large, not UTF-8, a FIFO): it would be lost.
      const problem = view.probes.find((item) => item.name === name)?.problems.find((item) => item.path === target.path)
      if (problem !== undefined) throw new GuardError('DOCS_UNUSABLE_DOCUMENT', `${name}: ${target.path} is ${problem.reason}; it was left as it is (fix or remove it by hand)`)
      const current = async (): Promise<string> => (await service.read(sessionId, name)).content
      options.beforeSave?.(target.path)
      const written = await saveDocument({ fs, name, base: target.base, path: target.path, content, expected: writeOptions.expected, current })
      return { path: target.path, bytes: written.bytes }
    },
    templates: () => store.list(),
    async saveTemplate(sessionId, template) {
      const name = config.docs.find((doc) => doc === 'conventions.md' || doc.endsWith('/conventions.md')) ?? 'conventions.md'
      const content = (await service.read(sessionId, name)).content
      if (content.trim() === '') throw new GuardError('DOCS_EMPTY_DOCUMENT', `${name} of session ${sessionId} is empty; there is nothing to save`)
      return { path: await store.save(template, content) }
    },
    async applyTemplate(sessionId, template) {
      const name = config.docs.find((doc) => doc === 'conventions.md' || doc.endsWith('/conventions.md'))
      if (name === undefined) throw new GuardError('DOCS_UNKNOWN_DOCUMENT', 'conventions.md is not among the configured documents')
      return service.write(sessionId, name, await store.read(template))
    },
    switches: () => options.switches.get(),
    setSwitches: (patch) => options.switches.set(patch),
    settings() {
      const scope = options.liveSettings?.()
      return scope === undefined ? undefined : settingsView(scope)
    },
    async updateSettings(patch) {
      const scope = options.liveSettings?.()
      if (scope === undefined) throw new GuardError('DOCS_NO_SETTINGS', 'no settings service is running; set these fields under maintainerDocGuard in the config file instead')
      await scope.update(patch)
      return settingsView(scope)
    },
    previewSweep: async (sessionId) => previewSweep(await sweepContext(sessionId)),
    async sweep(sessionId, names) {
      const removed = await removeOrphans(await sweepContext(sessionId), names)
      options.counters?.add('orphansRemoved', removed.length)
      return removed
    },
    counters: () => options.counters?.snapshot(),
  }
  return service
}
