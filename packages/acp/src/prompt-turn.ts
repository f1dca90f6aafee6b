/**
 * `session/prompt`: opens the session's agent (taking the session lock), grants the session's
 * additional directories again, runs one prompt while its progress streams to the client as
 * `session/update`s, and closes the agent (releasing the lock) before it answers with the stop
 * reason, so a session idle in one process can be loaded and prompted by another at once. A
 * session busy in another process is a JSON-RPC error saying which process holds it. A cancel
 * (`session/cancel`, or the request cancelled, or the connection closing) ends the running step:
 * its tool's processes are ended, the turn is closed as cancelled in the log, and the answer is
 * `{ stopReason: "cancelled" }`; a prompt that arrives meanwhile starts once that is done.
 */
import { RequestError, type AgentContext, type PromptRequest, type PromptResponse, type SessionUpdate } from '@agentclientprotocol/sdk'
import type { FileSystemPort } from '@dsh/contracts'
import { errorMessage, isDshError, type Agent } from '@dsh/runtime'
import type { AcpAgentDeps } from './acp-contract.ts'
import { clientFileSystem } from './client-file-system.ts'
import { promptText } from './prompt-text.ts'
import { PromptUpdates } from './prompt-updates.ts'
import { commandsUpdate, expandSlash, refreshedCommands } from './slash-commands.ts'
import { answerRewind, rewindArguments } from './rewind-command.ts'
import type { AcpSession } from './session-registry.ts'
import { stopReasonOf } from './stop-reason.ts'

async function grantDirectories(deps: AcpAgentDeps, agent: Agent, session: AcpSession): Promise<void> {
  const service = deps.host.ctx.get('workspaceRoots')
  if (service === undefined || session.additional.length === 0) return
  const roots = service.session(agent.session)
  for (const dir of session.additional) {
    try {
      await roots.addForSession(dir)
    } catch (error) {
      // Checked when the session was opened; a directory gone since then is left out of this prompt.
      const code = error instanceof Error && 'code' in error ? String(error.code) : ''
      if (code !== 'duplicate') deps.log(`warning: session ${session.id}: additional directory ${dir} is not granted: ${errorMessage(error)}`)
    }
  }
}

async function openAgent(deps: AcpAgentDeps, session: AcpSession): Promise<Agent> {
  const fs = deps.registry.capabilities.fs
  const read = fs?.readTextFile === true
  const write = fs?.writeTextFile === true
  const toolFs = read || write ? { toolFs: (base: FileSystemPort) => clientFileSystem({ base, sessionId: session.id, client: () => session.running?.client, read, write }) } : {}
  let agent: Agent
  try {
    agent = await deps.host.startAgent({ ...deps.startOptions(session.cwd, session.id), resume: session.id, ...toolFs, ...(session.servers === undefined ? {} : { tools: session.servers.tools }) })
  } catch (error) {
    // The session is open in another process (or its file cannot be opened): the client is told why.
    if (isDshError(error)) throw new RequestError(-32603, error.message, { sessionId: session.id, code: error.code })
    throw error
  }
  try {
    await grantDirectories(deps, agent, session)
  } catch (error) {
    agent.dispose()
    throw error
  }
  return agent
}

/** Answers `session/prompt` for `session` through `client`; `signal` aborts when the request is cancelled. */
export async function answerPrompt(deps: AcpAgentDeps, session: AcpSession, params: PromptRequest, client: AgentContext, signal: AbortSignal): Promise<PromptResponse> {
  session.stopWaiting()
  // A prompt sent right after `session/cancel` (editors send the next message at once) waits for
  // the cancelled one to wind down; a prompt while one runs uncancelled is refused.
  while (session.running?.controller.signal.aborted === true) await session.running.settled
  if (session.running !== undefined) throw RequestError.invalidRequest({ sessionId: session.id }, `session ${session.id} is already answering a prompt; cancel it first`)
  const typed = promptText(params.prompt)
  // As in `dsh run`: an empty prompt is the client's mistake, not a model call.
  if (typed.trim() === '') throw RequestError.invalidParams({ sessionId: session.id }, 'prompt: the prompt is empty: say what the agent should do')
  // The built-in `/rewind` wins over a command file of that name.
  const rewind = rewindArguments(typed)
  const controller = new AbortController()
  const cancel = (): void => controller.abort()
  signal.addEventListener('abort', cancel, { once: true })
  let sent: Promise<void> = Promise.resolve()
  const send = (update: SessionUpdate): void => {
    // Updates go out in order. Once the connection has closed nobody can receive them (nothing to
    // report); an update that fails on an open connection is logged.
    sent = sent
      .then(() => client.notify('session/update', { sessionId: session.id, update }))
      .catch((error: unknown) => {
        if (!signal.aborted) deps.log(`session ${session.id}: an update was not sent: ${errorMessage(error)}`)
      })
  }
  const commands = await commandsUpdate(deps, session)
  if (commands !== undefined) send(commands)
  const updates = new PromptUpdates(session, send)
  let settle: (() => void) | undefined
  const settled = new Promise<void>((resolve) => (settle = resolve))
  session.running = { controller, client, send, flush: () => sent, toolCallId: (callId) => updates.toolCallId(callId), announced: new Map(), settled }
  try {
    const agent = await openAgent(deps, session)
    if (rewind !== undefined) {
      try {
        const answer = answerRewind(agent, deps.host.dshHome, rewind, send)
        await sent
        return answer
      } finally {
        agent.dispose()
      }
    }
    const unsubscribe = agent.onProgress((event) => updates.onProgress(event))
    try {
      // Expanded with the opened session: skills its catalog announced from nested directories count.
      const prompt = await expandSlash(deps, session, typed, agent.session)
      const result = await agent.prompt(prompt.text, { signal: controller.signal, events: prompt.events }).catch((error: unknown) => {
        throw new RequestError(-32603, `the turn failed: ${errorMessage(error)}`, { sessionId: session.id })
      })
      const refreshed = await refreshedCommands(deps, session, agent.session)
      if (refreshed !== undefined) send(refreshed)
      await sent
      return { stopReason: stopReasonOf(result) }
    } finally {
      unsubscribe()
      agent.dispose()
    }
  } finally {
    session.running = undefined
    signal.removeEventListener('abort', cancel)
    settle?.()
    // The editor's prompt box now waits for the person (a Notification hook hears it after a while).
    const idle = deps.idle
    if (idle !== undefined) session.waitForPerson(idle.afterMs, () => idle.notice(session))
  }
}
