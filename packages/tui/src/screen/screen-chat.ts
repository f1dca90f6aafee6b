/**
 * The full-screen chat: starts pi-tui, opens the starting session (through the picker when asked
 * to), wires the editor (history, completion, submit and queueing), the keys, the permission
 * dialog and the status ticker to one chat controller, and tears everything down on exit,
 * leaving the terminal as it found it.
 */
import type { Component, Terminal } from '@mariozechner/pi-tui'
import type { PermissionDecision } from '@dsh/contracts'
import { deriveMessages, userHome, type Agent } from '@dsh/runtime'
import { todoListOf } from '@dsh/todo'
import type { Asker } from '../approvals/approval-broker.ts'
import { ChatController } from '../chat-controller.ts'
import type { ChatEnvironment } from '../chat-environment.ts'
import { chatCompletion } from '../input/completion.ts'
import { PromptHistory } from '../input/prompt-history.ts'
import { resumedSessionLine } from '../sessions/resume-note.ts'
import type { SessionRow } from '../sessions/session-rows.ts'
import { cycleMode } from '../slash/permission-commands.ts'
import type { SlashRegistry } from '../slash/slash-registry.ts'
import { shortPath, statusSnapshot } from '../status/status-snapshot.ts'
import type { Theme } from '../theme.ts'
import { ApprovalDialog } from './approval-dialog.ts'
import { bindKeys } from './key-bindings.ts'
import { ScreenLayout } from './screen-layout.ts'
import { ScreenView } from './screen-view.ts'
import { SessionPicker } from './session-picker.ts'
import { ChoiceList } from './choice-list.ts'
import { guardTerminal } from './terminal-guard.ts'

/** How often spinners and elapsed times move while something runs. */
export const tickMs = 120

/** Inputs of the full-screen chat. */
export interface ScreenChatOptions {
  readonly env: ChatEnvironment
  readonly registry: SlashRegistry
  readonly theme: Theme
  /** Attaches the permission asker. */
  readonly attachAsker: (asker: Asker) => () => void
  /**
   * Opens the starting agent; `pick` shows the session picker, `notice` a line in the transcript.
   * Undefined ends the chat (picker cancelled).
   */
  readonly openAgent: (pick: (rows: readonly SessionRow[]) => Promise<string | undefined>, notice: (line: string) => void) => Promise<Agent | undefined>
  /** Each session id that becomes current; absent when nothing may be written beside the screen (stderr is the terminal). */
  readonly onSession?: (id: string) => void
  /** Aborts when the product ends the chat (its shutdown path: SIGTERM, SIGHUP). */
  readonly stop?: AbortSignal
  /** A first message, sent as if typed once the session is open. */
  readonly initialPrompt?: string
  /** A terminal other than the process's own (tests). */
  readonly terminal?: Terminal
  readonly now?: () => number
}

/** How the chat ended. */
export interface ScreenChatResult {
  readonly exitCode: number
  /** The session that was current at the end, if one was opened. */
  readonly sessionId?: string
}

/** Shows a modal until `settle` is called with its result. */
function modal<T>(layout: ScreenLayout, build: (settle: (value: T) => void) => Component, abort?: { readonly signal: AbortSignal; readonly value: T }): Promise<T> {
  return new Promise((resolve) => {
    let component: Component | undefined
    const settle = (value: T): void => {
      abort?.signal.removeEventListener('abort', onAbort)
      if (component !== undefined) layout.closeModal(component)
      resolve(value)
    }
    const onAbort = (): void => {
      if (abort !== undefined) settle(abort.value)
    }
    if (abort?.signal.aborted === true) return resolve(abort.value)
    abort?.signal.addEventListener('abort', onAbort, { once: true })
    component = build(settle)
    layout.openModal(component)
  })
}

/** Runs the full-screen chat until it ends. */
export async function runScreenChat(options: ScreenChatOptions): Promise<ScreenChatResult> {
  const { env, theme, registry } = options
  const now = options.now ?? Date.now
  const home = userHome(env.env['HOME'])
  const short = (path: string): string => shortPath(path, home)
  const layout = new ScreenLayout({
    theme,
    now,
    banner: { version: env.version, model: env.model.label, cwd: short(env.cwd), approvals: env.approvalMode },
    status: { model: env.model.label, cwd: short(env.cwd), roots: 0, approvals: env.approvalMode, sessionId: '' },
    ...(options.terminal === undefined ? {} : { terminal: options.terminal }),
  })
  // A cancelled command (Ctrl-C while the picker is open) closes the picker.
  const pickSession = (rows: readonly SessionRow[], signal?: AbortSignal): Promise<string | undefined> =>
    modal<string | undefined>(layout, (settle) => new SessionPicker({ rows, theme, now: new Date(now()), shortPath: short, done: settle }), signal === undefined ? undefined : { signal, value: undefined })
  let controller: ChatController | undefined
  let signalCode: number | undefined
  const view = new ScreenView({
    transcript: layout.transcript,
    theme,
    now,
    cwd: () => controller?.agent.handle.cwd ?? env.cwd,
    requestRender: () => layout.tui.requestRender(),
    statusChanged: () => {
      if (controller !== undefined) layout.status.update(statusSnapshot(controller))
      layout.tui.requestRender()
    },
    queueChanged: (queued) => layout.setQueued(queued),
    todosChanged: (items) => layout.setTodos(items),
    restoreDraft: (text) => {
      // What the person typed meanwhile is theirs: only an empty prompt takes the rewound one.
      if (layout.editor.getText().trim() !== '') return
      layout.editor.setText(text)
      layout.tui.requestRender()
    },
    pickSession,
    choose: (request, signal) => modal<string | undefined>(layout, (settle) => new ChoiceList({ request, theme, done: settle }), signal === undefined ? undefined : { signal, value: undefined }),
    waiting: () => layout.modalOpen,
  })
  let stopped = false
  const stopScreen = (): void => {
    if (stopped) return
    stopped = true
    layout.tui.stop()
  }
  const unguard = guardTerminal({
    restore: stopScreen,
    onSignal: (code) => {
      signalCode = code
      controller?.exit()
    },
  })
  layout.tui.start()
  const ticker = setInterval(() => {
    if (controller?.busy === true) layout.tui.requestRender()
  }, tickMs)
  // Diagnostics written to the terminal behind pi-tui's back would be drawn over: show them instead.
  const detachDiagnostics = env.diagnostics?.attach((line) => view.lines([line], line.startsWith('warning:') ? 'warning' : 'notice')) ?? (() => undefined)
  const cleanups: (() => void)[] = [unguard, () => clearInterval(ticker), detachDiagnostics]
  try {
    const notices: string[] = []
    const agent = await options.openAgent(pickSession, (line) => notices.push(line))
    if (agent === undefined || options.stop?.aborted === true) {
      agent?.dispose()
      return { exitCode: signalCode ?? 0 }
    }
    controller = new ChatController({ env, view, registry, agent, ...(options.onSession === undefined ? {} : { onSession: options.onSession }) })
    const chat = controller
    options.onSession?.(agent.session.id)
    if (agent.session.surface.length > 0) {
      view.replay(deriveMessages(agent.session), todoListOf(agent.session).items)
      notices.push(resumedSessionLine(agent, env.cwd))
    }
    if (notices.length > 0) view.lines(notices, 'notice')
    view.statusChanged()
    const history = new PromptHistory({ dshHome: env.dshHome, projectDir: env.cwd, warn: (line) => view.lines([`warning: ${line}`], 'warning') })
    for (const text of history.load()) layout.editor.addToHistory(text)
    layout.editor.setAutocompleteProvider(chatCompletion(registry, env.cwd))
    // After a turn the prompt waits for the person: once `env.idle.afterMs` pass without a key, say so (Notification hooks).
    let idleTimer: ReturnType<typeof setTimeout> | undefined
    const rest = (): void => clearTimeout(idleTimer)
    const waitForPerson = (): void => {
      rest()
      const idle = env.idle
      if (idle === undefined || chat.busy) return
      idleTimer = setTimeout(() => idle.notice(chat.agent), idle.afterMs)
    }
    cleanups.push(rest, layout.tui.addInputListener(() => {
      rest()
      return undefined
    }))
    const submitted = (text: string): void => {
      rest()
      chat.submit(text).then(waitForPerson, (error: unknown) => view.error(error))
    }
    layout.editor.onSubmit = (text) => {
      if (text.trim() === '') return
      history.add(text, new Date(now()))
      layout.editor.addToHistory(text)
      submitted(text)
    }
    const asker: Asker = (question, signal) =>
      modal<PermissionDecision>(layout, (settle) => new ApprovalDialog({ question, theme, now, answer: settle, typeAhead: (data) => layout.editor.handleInput(data), rows: () => layout.tui.terminal.rows }), { signal, value: { kind: 'reject' } })
    const onStop = (): void => chat.exit()
    options.stop?.addEventListener('abort', onStop, { once: true })
    if (options.initialPrompt !== undefined) {
      history.add(options.initialPrompt, new Date(now()))
      layout.editor.addToHistory(options.initialPrompt)
      submitted(options.initialPrompt)
    }
    cleanups.push(options.attachAsker(asker), bindKeys({ layout, view, controller: chat, now, cycleMode: () => cycleMode({ controller: chat, view }), ...(registry.get('rewind') === undefined ? {} : { openRewind: () => void chat.submit('/rewind').catch((error: unknown) => view.error(error)) }) }), () => options.stop?.removeEventListener('abort', onStop))
    await chat.finished
    await env.sessionEnd?.(chat.agent, 'prompt_input_exit')
    return { exitCode: signalCode ?? chat.exitCode, sessionId: chat.agent.session.id }
  } finally {
    for (const cleanup of cleanups.toReversed()) cleanup()
    stopScreen()
  }
}
