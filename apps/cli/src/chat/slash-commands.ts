/**
 * Slash commands of the chat: parsing a typed line and running `/compact`, `/context`,
 * `/sessions`, `/resume ID`, `/help` and `/exit`. Commands talk to the session through
 * {@link SlashContext}; an unknown command gets a one-line hint. `//text` sends `/text` as a prompt.
 */
import type { ChatRequestBody } from '@dsh/contracts'
import { workspaceFolders } from '@dsh/multi-root-workspace'
import { deriveMessages, isAbortError, planCompaction, summarizeWithModel, type Agent, type Host } from '@dsh/runtime'
import { contextReport } from './context-report.ts'
import { problemText, type ChatRenderer } from './renderer.ts'
import { oneLine } from './tool-summary.ts'

/** A parsed slash command. */
export interface SlashCommand {
  /** Name without the slash, lower-cased. */
  readonly name: string
  /** Whitespace-separated arguments. */
  readonly args: readonly string[]
}

/** Parses a line: a command, or `undefined` for a prompt (including `//…`, sent without one slash). */
export function parseSlash(line: string): SlashCommand | undefined {
  const text = line.trim()
  if (!text.startsWith('/') || text.startsWith('//')) return undefined
  const [head = '', ...args] = text.slice(1).split(/\s+/)
  return { name: head.toLowerCase(), args }
}

/** The prompt text of a non-command line (`//x` becomes `/x`). */
export function promptText(line: string): string {
  return line.trimStart().startsWith('//') ? line.trimStart().slice(1) : line
}

/** What commands may use. */
export interface SlashContext {
  /** The current agent. */
  readonly agent: Agent
  /** The host (session store). */
  readonly host: Host
  /** Output. */
  readonly renderer: ChatRenderer
  /** Aborts when the person presses Ctrl-C. */
  readonly signal: AbortSignal
  /** Ask the model for compaction summaries (else the deterministic one). */
  readonly modelSummaries: boolean
  /** Receives the summary call's request body (the request log). */
  readonly onRequest?: (body: ChatRequestBody) => void
  /** The workspace-context inspection of the working directory (report lines). */
  inspectWorkspace(): Promise<string[]>
  /** Runs a `/docs` verb for this session and returns its text (maintainer-doc-guard). */
  docs(args: readonly string[]): Promise<string>
  /** Switches to a stored session. */
  resume(id: string): Promise<void>
  /** Ends the chat. */
  exit(): void
}

interface CommandSpec {
  readonly usage: string
  readonly help: string
  readonly run: (context: SlashContext, args: readonly string[]) => Promise<void> | void
}

async function compact(context: SlashContext): Promise<void> {
  const { agent, renderer } = context
  const plan = planCompaction(agent.session, { scope: 'at-rest' })
  if (plan === undefined) {
    renderer.line('nothing to compact (the visible history is empty or already one checkpoint)')
    return
  }
  const before = agent.session.surface.length
  let summary: string | undefined
  if (context.modelSummaries) {
    renderer.notice('asking the model for a summary…')
    try {
      summary = await summarizeWithModel(agent.provider, plan.messages, context.signal, context.onRequest)
    } catch (error) {
      // A cancelled summary cancels the compaction; any other failure falls back to the deterministic summary.
      if (context.signal.aborted || isAbortError(error)) {
        renderer.line('compaction cancelled')
        return
      }
      renderer.notice(`model summary failed (${oneLine(problemText(error))}); using the deterministic summary`)
    }
  }
  // At rest (no turn runs while a command does), so agent.compact plans the same range again.
  agent.compact(summary === undefined ? {} : { summary, summarizer: 'model' })
  renderer.line(`compacted: ${before} visible messages -> ${agent.session.surface.length}`)
}

function listSessions(context: SlashContext): void {
  const rows = context.host.sessions.list()
  if (rows.length === 0) {
    context.renderer.line('no sessions')
    return
  }
  const shown = rows.slice(0, 20)
  for (const row of shown) {
    const mark = row.id === context.agent.session.id ? '*' : ' '
    context.renderer.line(`${mark} ${row.id}  ${row.header.createdAt}  ${row.eventCount} events  ${oneLine(row.title ?? '', 60)}`.trimEnd())
  }
  if (rows.length > shown.length) context.renderer.notice(`(${rows.length - shown.length} older sessions not shown; dsh sessions list shows all)`)
}

const commands: Readonly<Record<string, CommandSpec>> = {
  compact: { usage: '/compact', help: 'replace the history with a summary that keeps your last prompt verbatim', run: compact },
  context: {
    usage: '/context',
    help: 'show the instruction files here and which ones this session sees',
    run: async (context) => {
      const workspace = await context.inspectWorkspace()
      const lines = ['Instruction files for new sessions here:', ...workspace.map((line) => `  ${line}`), '', 'In this session:', ...contextReport(deriveMessages(context.agent.session)).map((line) => `  ${line}`)]
      for (const line of lines) context.renderer.line(line.trimEnd())
    },
  },
  sessions: { usage: '/sessions', help: 'list stored sessions (* marks this one)', run: listSessions },
  docs: {
    usage: '/docs [VERB]',
    help: 'maintainer documents, switches, templates, sweep (/docs help)',
    run: async (context, args) => {
      for (const line of (await context.docs(args)).split('\n')) context.renderer.line(line)
    },
  },
  'workspace-folders': {
    usage: '/workspace-folders',
    help: 'additional workspace roots: list, add PATH, remove N|PATH|ID, alias N|PATH [NAME]',
    run: async (context, args) => {
      const roots = context.host.ctx.get('workspaceRoots')?.session(context.agent.session)
      const text = roots === undefined ? 'additional workspace roots are disabled (multiRootWorkspace.enabled is false)' : await workspaceFolders(roots, args.join(' '))
      for (const line of text.split('\n')) context.renderer.line(line)
    },
  },
  resume: {
    usage: '/resume ID',
    help: 'switch to a stored session',
    run: async (context, args) => {
      const id = args[0]
      if (id === undefined || args.length > 1) {
        context.renderer.line('usage: /resume ID (see /sessions for ids)')
        return
      }
      await context.resume(id)
    },
  },
  help: {
    usage: '/help',
    help: 'show this list',
    run: (context) => {
      for (const spec of Object.values(commands)) context.renderer.line(`${spec.usage.padEnd(12)} ${spec.help}`)
      context.renderer.line('Ctrl-C cancels a running step; Ctrl-C twice or Ctrl-D at the prompt exits; //text sends /text')
    },
  },
  exit: { usage: '/exit', help: 'end the chat', run: (context) => context.exit() },
}

const aliases: Readonly<Record<string, string>> = { quit: 'exit', '?': 'help' }

/** Runs a parsed command. */
export async function runSlash(command: SlashCommand, context: SlashContext): Promise<void> {
  const spec = commands[aliases[command.name] ?? command.name]
  if (spec === undefined) {
    context.renderer.line(`unknown command /${oneLine(command.name, 40)} (type /help for the list)`)
    return
  }
  await spec.run(context, command.args)
}
