/**
 * `dsh docs [VERB…]`: the maintainer documents of a session and the guard's operator surface
 * from the command line (list, show NAME, edit NAME, templates …, switches …, settings …, sweep),
 * through the same operator service and verbs the chat's `/docs` uses. The session is `--session`
 * or the newest top-level session started in `--cwd`; its documents live where its stored header
 * says. Switches and settings are read and written in `$DSH_HOME/settings.yaml`, so a running chat
 * picks changes up at once.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createLocalFileSystem } from '@dsh/fs-local'
import { createMaintainerDocGuard, createOperatorService, documentVersion, isGuardError, LiveSettingsSchema, liveBase, runDocsVerb, sessionDirectoryOf, SETTINGS_NAMESPACE, SwitchesSchema, switchBase, SWITCHES_NAMESPACE, type OperatorService, type WriteLevel } from '@dsh/maintainer-doc-guard'
import { errnoCode, errorMessage, SessionStore } from '@dsh/runtime'
import { SettingsStore } from '@dsh/settings'
import { configFrom } from '../agent-setup.ts'
import { CliError, usageError } from '../cli-error.ts'
import { errLine, type CliIo } from '../cli-io.ts'
import { cwdFrom, dshHomeFrom } from '../global-options.ts'
import { editInEditor } from './docs-editor.ts'

/** Options of `dsh docs`. */
export interface DocsOptions {
  readonly dshHome?: string
  readonly cwd?: string
  readonly config?: string
  readonly session?: string
  readonly level?: string
  readonly from?: string
  readonly yes?: boolean
}

const LEVELS: readonly WriteLevel[] = ['auto', 'session', 'workspace']
const isLevel = (value: string): value is WriteLevel => (LEVELS as readonly string[]).includes(value)

function newestSession(store: SessionStore, cwd: string): string | undefined {
  return store.list().find((row) => row.header.cwd === cwd && row.header.delegationDepth === 0)?.id
}

function readSource(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    // The operator named a file we cannot read: say which, in one line.
    throw usageError(`docs edit: --from ${file}: ${errnoCode(error) === 'ENOENT' ? 'no such file' : errorMessage(error)}`)
  }
}

async function edit(io: CliIo, service: OperatorService, sessionId: string, args: readonly string[], options: DocsOptions): Promise<string | number> {
  const name = args[0]
  if (name === undefined || args.length > 1) throw usageError('usage: dsh docs edit NAME [--from FILE] [--level auto|session|workspace]')
  const level = options.level ?? 'auto'
  if (!isLevel(level)) throw usageError(`--level ${level}: expected one of ${LEVELS.join(', ')}`)
  if (options.from !== undefined) {
    const written = await service.write(sessionId, name, readSource(resolve(io.cwd, options.from)), level)
    return `saved ${written.path} (${written.bytes} bytes)`
  }
  const current = (await service.read(sessionId, name)).content
  const outcome = await editInEditor(io, name, current)
  if (outcome.kind === 'interrupted') {
    const kept = outcome.kept === undefined ? 'there was no edit to keep' : `your edit is kept in ${outcome.kept} (save it with dsh docs edit ${name} --from ${outcome.kept})`
    errLine(io, `dsh: docs edit ${name}: stopped by ${outcome.signal} while the editor ran; nothing was saved; ${kept}`)
    return outcome.exitCode
  }
  if (outcome.content === current) {
    outcome.discard()
    return `${name}: unchanged`
  }
  try {
    const written = await service.write(sessionId, name, outcome.content, level, { expected: documentVersion(current) })
    outcome.discard()
    return `saved ${written.path} (${written.bytes} bytes)`
  } catch (error) {
    // Not swallowed: the failure is reported below, with where the edit is kept.
    const reason = isGuardError(error) ? error.message : errorMessage(error)
    throw new CliError(`docs: ${reason}; your edit is kept in ${outcome.file} (save it with dsh docs edit ${name} --from ${outcome.file})`)
  }
}

/** Runs `dsh docs`; returns the exit code. */
export async function docsCommand(io: CliIo, args: readonly string[], options: DocsOptions): Promise<number> {
  const dshHome = dshHomeFrom(io, options.dshHome)
  const cwd = cwdFrom(io, options.cwd)
  const guard = createMaintainerDocGuard({ ...configFrom(io, options.config).maintainerDocGuard, enabled: true })
  const store = new SessionStore({ directory: join(dshHome, 'sessions'), clock: () => new Date(), warn: (line) => errLine(io, `warning: ${line}`) })
  const settings = new SettingsStore({ file: join(dshHome, 'settings.yaml'), logger: (line) => errLine(io, line) })
  try {
    const live = settings.register(SETTINGS_NAMESPACE, LiveSettingsSchema, { base: liveBase(guard.base) })
    guard.switches.attach(settings.register(SWITCHES_NAMESPACE, SwitchesSchema, { base: switchBase(guard.base) }))
    const service = createOperatorService({ config: guard.base, fs: createLocalFileSystem({ writableRoots: [] }), sessions: sessionDirectoryOf(store), dshHome, switches: guard.switches, liveSettings: () => live })
    const sessionId = options.session ?? newestSession(store, cwd)
    const [verb = 'list', ...rest] = args
    if (verb === 'edit' && sessionId === undefined) throw usageError('docs edit: this needs a session (pass --session ID, or run it where a session has run)')
    const text =
      verb === 'edit' && sessionId !== undefined
        ? await edit(io, service, sessionId, rest, options)
        : await runDocsVerb(service, [verb, ...rest, ...(options.yes === true ? ['--yes'] : [])], sessionId === undefined ? {} : { sessionId })
    if (typeof text === 'number') return text
    io.stdout.write(`${text}\n`)
    return 0
  } catch (error) {
    if (isGuardError(error)) throw error.code === 'DOCS_USAGE' ? usageError(`docs: ${error.message}`) : new CliError(`docs: ${error.message}`)
    if (error instanceof CliError) throw error
    throw new CliError(`docs: ${errorMessage(error)}`)
  } finally {
    settings.close()
  }
}
