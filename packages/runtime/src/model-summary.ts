/**
 * Model-written compaction summaries: one extra model call over a plain-text transcript of the
 * messages being compacted. Callers fall back to the deterministic summary when it fails.
 */
import type { ChatRequestBody, Message, ModelProvider } from '@dsh/contracts'
import { AssistantAssembler } from './assistant-assembly.ts'
import { messageText } from './message-factory.ts'

/** Instructions of the summary call. */
export const summarySystemPrompt = `You write checkpoint summaries of coding-agent sessions. The summary replaces the transcript, so keep every fact the agent needs to continue: the user's goals and constraints, decisions taken, files read or changed and why, commands run and their outcomes, open problems and next steps. Do not invent anything. Write plain text, at most 400 words.`

const limit = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`)

/** Renders messages as a transcript for the summarizer. */
export function transcriptOf(messages: readonly Message[]): string {
  return messages
    .map((message) => {
      switch (message.role) {
        case 'user':
          return `USER (${message.source.kind}):\n${limit(messageText(message), 4000)}`
        case 'assistant': {
          const calls = message.content.flatMap((block) => (block.type === 'tool-call' ? [`call ${block.name}(${limit(block.arguments, 400)})`] : []))
          return `ASSISTANT:\n${[limit(messageText(message), 4000), ...calls].filter((line) => line !== '').join('\n')}`
        }
        case 'tool':
          return `TOOL ${message.toolName}${message.isError ? ' (error)' : ''}:\n${limit(messageText(message), 1500)}`
        default: {
          const unreachable: never = message
          return String(unreachable)
        }
      }
    })
    .join('\n\n')
}

/** What else a summary call takes. */
export interface SummaryCallOptions {
  /** Receives the request body (the request log). */
  readonly onRequest?: ((body: ChatRequestBody) => void) | undefined
  /** What the person asked the summary to keep (`/compact TEXT`); added to the request. */
  readonly instructions?: string | undefined
}

/** Asks the model for a summary; rejects on provider failure or an empty answer. */
export async function summarizeWithModel(provider: ModelProvider, messages: readonly Message[], signal: AbortSignal, options: SummaryCallOptions = {}): Promise<string> {
  const assembler = new AssistantAssembler()
  const asked = options.instructions === undefined || options.instructions.trim() === '' ? '' : `\n\nThe user asks the summary to: ${options.instructions.trim()}`
  const body = {
    model: provider.model,
    messages: [
      { role: 'system' as const, content: summarySystemPrompt },
      { role: 'user' as const, content: `Summarize this session transcript:\n\n${transcriptOf(messages)}${asked}` },
    ],
  }
  options.onRequest?.(body)
  for await (const event of provider.stream({ body, turn: 0, step: 0 }, signal)) assembler.push(event)
  const text = assembler.text.trim()
  if (text === '') throw new Error('the model returned an empty summary')
  return text
}
