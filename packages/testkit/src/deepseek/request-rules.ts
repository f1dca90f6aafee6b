/**
 * The checks DeepSeek makes before it answers a chat request, in the order the imitation applies
 * them: the key, the model name, `tool_choice` in thinking mode, the reasoning rule and the
 * context length. Each refusal is DeepSeek's error envelope (`deepseek-errors.ts`).
 */
import { authenticationFails, contextTooLong, duplicateToolCall, modelNotExist, reasoningNotPassedBack, toolChoiceRefused, type DeepSeekError } from './deepseek-errors.ts'
import { asRecord, carriesTools, thinkingOn, tokensOf } from './prompt-rendering.ts'

/** Models served when the options do not say (research notes §1.1). */
export const DEFAULT_SERVED_MODELS: readonly string[] = ['deepseek-flash', 'deepseek-v4-pro', 'deepseek-v4-flash', 'deepseek-v4-flash-vision-exp']

/** Inputs of {@link refusalOf}. */
export interface RuleInputs {
  readonly body: Readonly<Record<string, unknown>>
  readonly authorization: string | undefined
  readonly apiKey: string | undefined
  readonly servedModels: readonly string[]
  readonly reasoningRule: 'strict' | 'lenient'
  readonly contextWindow: number
  /** The rendered prompt, for the context-length check. */
  readonly prompt: string
}

/** The refusal of a request, or undefined when it is accepted. */
export function refusalOf(input: RuleInputs): DeepSeekError | undefined {
  const { body } = input
  if (input.apiKey !== undefined && input.authorization !== `Bearer ${input.apiKey}`) return authenticationFails(input.authorization?.replace(/^Bearer /, '') ?? '')
  const model = typeof body.model === 'string' ? body.model : ''
  if (!input.servedModels.includes(model)) return modelNotExist()
  const thinking = thinkingOn(body)
  const choice = body.tool_choice
  if (thinking && (choice === 'required' || (typeof choice === 'object' && choice !== null))) return toolChoiceRefused(model)
  if (thinking && carriesTools(body) && reasoningMissing(body, input.reasoningRule)) return reasoningNotPassedBack()
  const duplicate = duplicateToolCallId(body)
  if (duplicate !== undefined) return duplicateToolCall(duplicate)
  const completion = typeof body.max_tokens === 'number' ? body.max_tokens : thinking ? 65_536 : 8_192
  const messages = tokensOf(input.prompt)
  if (messages + completion > input.contextWindow) return contextTooLong(input.contextWindow, messages, completion)
  return undefined
}

/** Strict: some assistant message lacks a string `reasoning_content`. Lenient: some have it and some lack it. */
function reasoningMissing(body: Readonly<Record<string, unknown>>, rule: 'strict' | 'lenient'): boolean {
  const messages = Array.isArray(body.messages) ? body.messages : []
  const assistants = messages.map(asRecord).filter((message) => message.role === 'assistant')
  const carrying = assistants.filter((message) => typeof message.reasoning_content === 'string').length
  return rule === 'strict' ? carrying < assistants.length : carrying > 0 && carrying < assistants.length
}

/**
 * A tool-call id used twice among the assistant messages' calls, or answered by two tool
 * messages. The OpenAI-compatible format needs every call answered exactly once; DeepSeek's own
 * behaviour here is undocumented ([INF]), so the imitation refuses, as strict servers do (issue 22 F6).
 */
function duplicateToolCallId(body: Readonly<Record<string, unknown>>): string | undefined {
  const messages = Array.isArray(body.messages) ? body.messages.map(asRecord) : []
  const calls = new Set<string>()
  const answers = new Set<string>()
  for (const message of messages) {
    if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls.map(asRecord)) {
        const id = typeof call.id === 'string' ? call.id : ''
        if (calls.has(id)) return id
        calls.add(id)
      }
    }
    if (message.role === 'tool') {
      const id = typeof message.tool_call_id === 'string' ? message.tool_call_id : ''
      if (answers.has(id)) return id
      answers.add(id)
    }
  }
  return undefined
}
