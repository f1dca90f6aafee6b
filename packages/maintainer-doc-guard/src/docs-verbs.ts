/**
 * The `/docs` verbs as one plain function that returns text, so every front end (the `dsh docs`
 * command, the chat's `/docs`, a later terminal UI) offers the same operator surface:
 *   list · show NAME · edit NAME (the CLI runs it; elsewhere it says so) · templates [list | save
 *   NAME | apply NAME] · switches [KEY=on|off …] · settings [KEY=VALUE …] · sweep [--yes] · counters
 *   · help
 * Failures are `GuardError`s (`DOCS_USAGE` for bad usage); front ends print their message.
 */
import { relative } from 'node:path'
import type { CountersSnapshot } from './counters.ts'
import { GuardError } from './guard-error.ts'
import { LIVE_FIELDS } from './live-settings.ts'
import type { DocumentEntry, OperatorService } from './operator-types.ts'
import { SWITCH_NAMES } from './switches.ts'
import { parseSettings, parseSwitches } from './verb-values.ts'

/** Usage of the verbs. */
export const DOCS_USAGE = [
  'list                       the documents of this session (creates missing ones on first open)',
  'show NAME                  print one document',
  'edit NAME                  change one document in $EDITOR (dsh docs in a terminal; --from FILE)',
  'templates [list]           saved conventions templates',
  'templates save NAME        save this session\'s conventions.md as a template',
  'templates apply NAME       write a template into conventions.md',
  'switches [KEY=on|off ...]  show or change the runtime switches',
  'settings [KEY=VALUE ...]   show or change the ten live settings',
  'sweep [--yes]              preview (then remove) folders of sessions that no longer exist',
  'counters                   what the guard saw and did in this process',
].join('\n')

/** Verb names, in the order of {@link DOCS_USAGE}. */
const VERBS = ['list', 'show', 'edit', 'templates', 'switches', 'settings', 'sweep', 'counters', 'help'] as const

/** Who the verbs act for. */
export interface VerbContext {
  /** The session whose documents are meant; verbs that need one fail without it. */
  readonly sessionId?: string
}

function needSession(context: VerbContext): string {
  if (context.sessionId === undefined) throw new GuardError('DOCS_USAGE', 'this needs a session (pass --session ID, or run it where a session has run)')
  return context.sessionId
}

function entryLines(cwd: string, entry: DocumentEntry): string[] {
  const name = entry.name.padEnd(22)
  const problems = entry.problems.map((problem) => `    left out: ${relative(cwd, problem.path)} is ${problem.reason}`)
  if (entry.level === undefined || entry.path === undefined) {
    const blank = entry.role === 'people' ? 'blank; for people, never shown to the model' : entry.role === 'ledger' ? 'none yet; the model writes it' : 'blank'
    return [`  ${name} (${problems.length > 0 ? 'not usable' : blank})`, ...problems]
  }
  const note = entry.role === 'people' ? '  (for people, never shown to the model)' : ''
  return [`  ${name} ${entry.level.padEnd(9)} ${`${entry.chars} chars`.padEnd(12)} ${relative(cwd, entry.path)}${note}`, ...problems]
}

function countersText(snapshot: CountersSnapshot | undefined): string {
  if (snapshot === undefined) return 'no guard runs in this process; counters live in the process that runs the session'
  const counts = Object.entries(snapshot.counts).filter(([, value]) => value > 0)
  const lines = counts.length === 0 ? ['(nothing counted yet)'] : counts.map(([name, value]) => `${name.padEnd(22)} ${value}`)
  const last = Object.entries(snapshot.last).map(([name, value]) => `${name.padEnd(22)} ${JSON.stringify(value)}`)
  return [...lines, ...last].join('\n')
}

async function templates(service: OperatorService, args: readonly string[], context: VerbContext): Promise<string> {
  const [action = 'list', name] = args
  if (action === 'list') {
    const names = await service.templates()
    return names.length === 0 ? '(no templates yet; save one with: templates save NAME)' : names.join('\n')
  }
  if ((action !== 'save' && action !== 'apply') || name === undefined) throw new GuardError('DOCS_USAGE', 'usage: templates [list | save NAME | apply NAME]')
  if (action === 'save') return `saved ${(await service.saveTemplate(needSession(context), name)).path}`
  const written = await service.applyTemplate(needSession(context), name)
  return `applied template ${name} to ${written.path} (${written.bytes} bytes)`
}

async function sweep(service: OperatorService, args: readonly string[], context: VerbContext): Promise<string> {
  const sessionId = needSession(context)
  const preview = await service.previewSweep(sessionId)
  if (preview.orphans.length === 0) return `no orphaned session folders in ${preview.folder}`
  if (!args.includes('--yes')) return [`would remove ${preview.orphans.length} folder(s) of sessions that no longer exist in ${preview.folder}:`, ...preview.orphans.map((name) => `  ${name}`), 'run again with --yes to remove them'].join('\n')
  const removed = await service.sweep(sessionId, preview.orphans)
  return [`removed ${removed.length} folder(s):`, ...removed.map((name) => `  ${name}`)].join('\n')
}

/** Runs one verb and returns its text. */
export async function runDocsVerb(service: OperatorService, args: readonly string[], context: VerbContext = {}): Promise<string> {
  const [verb = 'list', ...rest] = args
  switch (verb) {
    case 'list': {
      const view = await service.documents(needSession(context))
      const created = view.created.length === 0 ? [] : [`created on first open: ${view.created.join(', ')}`]
      return [`Maintainer documents of session ${view.sessionId}`, `folder: ${view.folder}`, ...created, ...view.documents.flatMap((entry) => entryLines(view.cwd, entry))].join('\n')
    }
    case 'show': {
      const name = rest[0]
      if (name === undefined) throw new GuardError('DOCS_USAGE', 'usage: show NAME')
      const doc = await service.read(needSession(context), name)
      return doc.content === '' ? `(${name} is blank)` : doc.content.replace(/\n$/u, '')
    }
    case 'edit':
      throw new GuardError('DOCS_USAGE', 'edit opens an editor: run `dsh docs edit NAME` in a terminal (or pass --from FILE there)')
    case 'templates':
      return templates(service, rest, context)
    case 'switches': {
      const values = rest.length === 0 ? service.switches() : await service.setSwitches(parseSwitches(rest))
      return SWITCH_NAMES.map((name) => `${name.padEnd(22)} ${values[name] ? 'on' : 'off'}`).join('\n')
    }
    case 'settings': {
      const view = rest.length === 0 ? service.settings() : await service.updateSettings(parseSettings(rest))
      if (view === undefined) return 'no settings service is running; the composition config is in force'
      return LIVE_FIELDS.map((field) => `${field.padEnd(24)} ${String(view.value[field])}${view.overridden.includes(field) ? `  (overridden; config: ${String(view.base[field])})` : ''}`).join('\n')
    }
    case 'sweep':
      return sweep(service, rest, context)
    case 'counters':
      return countersText(service.counters())
    case 'help':
      return DOCS_USAGE
    default:
      throw new GuardError('DOCS_USAGE', `unknown verb "${verb}" (verbs: ${VERBS.join(', ')}; see help)`)
  }
}
