/**
 * The first message of a child session: the delegated task, framed so the child knows it works
 * alone and that only its final answer goes back to the delegating agent. Its source
 * (`delegation`, parent session, parent call id) is persisted but never shown to the model.
 */
import type { UserMessage } from '@dsh/contracts'
import { createUserMessage } from '@dsh/runtime'
import type { ChildRequest } from './child-request.ts'

/** The model-visible text of a delegation. */
export function delegationText(request: Pick<ChildRequest, 'prompt' | 'description'> & { readonly parentSession: string }): string {
  const label = request.description === undefined || request.description.trim() === '' ? '' : ` (${request.description.trim()})`
  return [
    `This is a delegated task${label}. Another agent (session ${request.parentSession}) started you as a subagent to do it.`,
    `Task:\n${request.prompt}`,
    'Work on it on your own with your tools; nobody will answer questions while you work. When you are done, reply with your final answer. Only that final message is returned to the delegating agent, as the result of its subagent call, so make it complete and self-contained: what you found or changed, and anything you could not do.',
  ].join('\n\n')
}

/** The delegation message for `request`. */
export function delegationMessage(request: ChildRequest): UserMessage {
  return createUserMessage({
    text: delegationText({ prompt: request.prompt, parentSession: request.parent.id, ...(request.description === undefined ? {} : { description: request.description }) }),
    source: { kind: 'delegation', parentSession: request.parent.id, parentCallId: request.callId },
  })
}
