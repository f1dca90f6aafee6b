/**
 * `dsh docs [VERB…]`: the maintainer documents of a session and the guard's operator surface
 * from the command line (list, show NAME, edit NAME, templates …, switches …, settings …, sweep),
 * through the same operator service and verbs the chat's `/docs` uses. The session is `--session`
 * or the newest top-level session started in `--cwd`; its documents live where its stored header
 * says. Switches and settings are read and written in `$DSH_HOME/settings.yaml`, so a running chat
 * picks changes up at once.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createLocalFileSystem } from '@dsh/fs-local'
import { createMaintainerDocGuard, createOperatorService, isGuardError, LiveSettingsSchema, liveBase, runDocsVerb, sessionDirectoryOf, SETTINGS_NAMESPACE, SwitchesSchema, switchBase, SWITCHES_NAMESPACE, type OperatorService, type WriteLevel } from '@dsh/maintainer-doc-guard'
import { errnoCode, errorMessage, SessionStore } from '@dsh/runtime'
import { SettingsStore } from '@dsh/settings'
import { configFrom } from '../agent-setup.ts'
import { CliError, usageError } from '../cli-error.ts'
import { errLine, type CliIo } from '../cli-io.ts'
import { cwdFrom, dshHomeFrom } from '../global-options.ts'

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

function edited(io: CliIo, name: string, current: string): string {
  const editor = io.env['VISUAL'] ?? io.env['EDITOR']
  if (editor === undefined || editor.trim() === '') throw usageError(`docs edit ${name}: set $EDITOR (or $VISUAL), or pass --from FILE`)
  const dir = mkdtempSync(join(tmpdir(), 'dsh-docs-'))
  const file = join(dir, name.replaceAll('/', '-'))
  try {
    writeFileSync(file, current)
    const run = spawnSync('sh', ['-c', `${editor} "$1"`, 'sh', file], { stdio: 'inherit', env: { ...io.env } })
    if (run.status !== 0) throw new CliError(`docs edit ${name}: the editor exited with ${run.status ?? run.signal ?? 'an error'}; nothing was saved`)
    return readFileSync(file, 'utf8')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function readSource(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    // The operator named a file we cannot read: say which, in one line.
    throw usageError(`docs edit: --from ${file}: ${errnoCode(error) === 'ENOENT' ? 'no such file' : errorMessage(error)}`)
  }
}

async function edit(io: CliIo, service: OperatorService, sessionId: string, args: readonly string[], options: DocsOptions): Promise<string> {
  const name = args[0]
  if (name === undefined || args.length > 1) throw usageError('usage: dsh docs edit NAME [--from FILE] [--level auto|session|workspace]')
  const level = options.level ?? 'auto'
  if (!isLevel(level)) throw usageError(`--level ${level}: expected one of ${LEVELS.join(', ')}`)
  let content: string
  if (options.from === undefined) {
    const current = (await service.read(sessionId, name)).content
    content = edited(io, name, current)
    if (content === current) return `${name}: unchanged`
  } else content = readSource(resolve(io.cwd, options.from))
  const written = await service.write(sessionId, name, content, level)
  return `saved ${written.path} (${written.bytes} bytes)`
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
