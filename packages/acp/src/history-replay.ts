/**
 * The visible history of a stored session as the `session/update`s `session/load` sends before
 * it answers: what a person typed as `user_message_chunk`, the model's reasoning and answers as
 * `agent_thought_chunk` / `agent_message_chunk`, each tool call as a `tool_call` followed by a
 * `tool_call_update` with its result, a compaction checkpoint (the summary the model has instead
 * of the history before it) as an `agent_thought_chunk`, and at the end the task checklist as an
 * agent `plan`. Other messages the model saw that nobody typed (instruction files, plugin notices)
 * are not replayed; events compaction replaced are not visible and are not replayed either.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import type { SessionView } from '@dsh/contracts'
import { dataOf } from '@dsh/runtime'
import type { PathSpelling } from './path-spelling.ts'
import { todoListOf } from '@dsh/todo'
import { planUpdate } from './plan-update.ts'
import { resultContent } from './prompt-updates.ts'
import { toolCallId } from './tool-call-id.ts'
import { argumentsOf, presentTool } from './tool-presentation.ts'

/** The updates that replay `session`'s visible history, in order. */
export function replayHistory(session: SessionView, spelling: PathSpelling): SessionUpdate[] {
  const updates: SessionUpdate[] = []
  for (const seq of session.surface) {
    const event = session.eventBySeq(seq)
    if (event === undefined) continue
    const user = dataOf(event, 'user/message')
    if (user !== undefined) {
      const { kind } = user.message.source
      // A compaction checkpoint is what the model has in place of the history before it: replayed
      // as a thought (editors fold it away), so the loaded session neither looks empty nor shows
      // the summary as if the person had typed it.
      if (kind !== 'user' && kind !== 'compaction') continue
      for (const block of user.message.content) updates.push({ sessionUpdate: kind === 'user' ? 'user_message_chunk' : 'agent_thought_chunk', content: { type: 'text', text: block.text } })
      continue
    }
    const assistant = dataOf(event, 'assistant/message')
    if (assistant !== undefined) {
      for (const block of assistant.message.content) {
        if (block.type === 'text' && block.text !== '') updates.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: block.text } })
        if (block.type === 'reasoning' && block.text !== '') updates.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: block.text } })
        if (block.type === 'tool-call') {
          const shown = presentTool(block.name, block.arguments, spelling)
          updates.push({ sessionUpdate: 'tool_call', toolCallId: toolCallId(assistant.turn, assistant.step, block.callId), title: shown.title, kind: shown.kind, status: 'pending', locations: shown.locations, rawInput: argumentsOf(block.arguments) })
        }
      }
      continue
    }
    const result = dataOf(event, 'tool/result')
    if (result !== undefined) {
      const text = result.message.content.map((block) => block.text).join('')
      updates.push({ sessionUpdate: 'tool_call_update', toolCallId: toolCallId(result.turn, result.step, result.message.callId), status: result.message.isError ? 'failed' : 'completed', content: resultContent([], text) })
    }
  }
  // The checklist as the session holds it now (also when compaction summarised its call away).
  const todos = todoListOf(session).items
  if (todos.length > 0) updates.push(planUpdate(todos))
  return updates
}
