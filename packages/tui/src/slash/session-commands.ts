/**
 * Session commands: `/sessions` (stored sessions, `*` marks this one), `/resume [ID]` (by id, or
 * through the picker; the resumed conversation is replayed on screen), `/new` and `/clear` (a
 * fresh session; the previous one stays stored and resumable). A session switched to is prepared by
 * the product first (`prepareSwitch`: the CLI grants its `--add-dir` directories) and its lines shown.
 */
import type { Agent } from '@dsh/runtime'
import type { ChatController } from '../chat-controller.ts'
import { oneLine, problemText } from '../text-safety.ts'
import { relativeTime } from '../sessions/relative-time.ts'
import { resumedSessionLine } from '../sessions/resume-note.ts'
import { resumableRows, sessionRows } from '../sessions/session-rows.ts'
import type { SlashCommandSpec, SlashContext } from './slash-registry.ts'

/** Opens the session to switch to (`resume`, else a new one) and prepares it; closes it again when that fails. */
async function open(controller: ChatController, resume?: string): Promise<{ readonly agent: Agent; readonly notes: readonly string[] }> {
  const agent = await controller.startAgent(resume)
  try {
    return { agent, notes: (await controller.env.prepareSwitch?.(agent)) ?? [] }
  } catch (error) {
    // The session cannot be used as the chat needs it: it is closed, the caller keeps the current one.
    agent.dispose()
    throw error
  }
}

async function switchTo(context: SlashContext, id: string): Promise<void> {
  const { controller, view } = context
  let next
  try {
    const resolved = controller.env.host.sessions.resolve(id)
    if (resolved === controller.agent.session.id) {
      view.lines([`already in session ${resolved}`])
      return
    }
    next = await open(controller, resolved)
  } catch (error) {
    // An unknown, busy or unreadable session leaves the current one in place.
    view.error(error)
    return
  }
  const previous = controller.agent.session.id
  await controller.env.sessionEnd?.(controller.agent, 'other')
  controller.adopt(next.agent)
  view.lines([resumedSessionLine(next.agent, controller.env.cwd), `(the previous one: dsh chat --resume ${previous})`, ...next.notes], 'notice')
}

export const sessionsCommand: SlashCommandSpec = {
  name: 'sessions',
  usage: '/sessions',
  help: 'list stored sessions (* marks this one)',
  run: ({ controller }) => {
    const rows = sessionRows(controller.env.host.sessions)
    if (rows.length === 0) return 'no sessions'
    const now = new Date()
    const lines = rows.slice(0, 20).map((row) => `${row.id === controller.agent.session.id ? '*' : ' '} ${row.id}  ${relativeTime(row.updatedAt, now).padEnd(11)}  ${oneLine(row.title, 60)}`)
    return rows.length > 20 ? [...lines, `(${rows.length - 20} older sessions not shown; dsh sessions list shows all)`] : lines
  },
}

export const resumeCommand: SlashCommandSpec = {
  name: 'resume',
  usage: '/resume [ID]',
  help: 'switch to a stored session (without an id: pick one)',
  run: async (context, args) => {
    if (args.length > 1) return 'usage: /resume [ID] (see /sessions for ids)'
    const rows = resumableRows(context.controller.env.host.sessions, context.controller.agent.session.id)
    if (args[0] === undefined && rows.length === 0) return 'no other session with a turn to resume (/sessions lists them all)'
    const id = args[0] ?? (await context.view.pickSession(rows, context.signal))
    if (id === undefined) return args.length === 0 ? 'no session chosen' : undefined
    await switchTo(context, id)
    return undefined
  },
}

export const newCommand: SlashCommandSpec = {
  name: 'new',
  aliases: ['clear'],
  usage: '/new',
  help: 'start a fresh session (also /clear); the current one stays stored',
  run: async ({ controller }) => {
    const previous = controller.agent.session.id
    let next
    try {
      next = await open(controller)
    } catch (error) {
      // The store could not create a session, or it could not be prepared: stay in the current one.
      return `cannot start a new session: ${problemText(error)}`
    }
    await controller.env.sessionEnd?.(controller.agent, 'clear')
    controller.adopt(next.agent)
    return [`new session ${controller.agent.session.id}`, `the previous one: dsh chat --resume ${previous}`, ...next.notes]
  },
}
