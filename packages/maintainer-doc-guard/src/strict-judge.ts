/**
 * Strict on-topic mode's judge, run at `agent/turn-stopping` while the `strictOnTopic` switch is
 * on: one extra model call asks whether the final answer answers the anchored instruction. An
 * off-topic verdict keeps the turn going with one correction (at most one per turn); anything
 * else — on-topic, an unparseable reply, a failed or cancelled call, no instruction to judge
 * against — lets the turn end. The judge never blocks a turn for its own failure.
 */
import type { ChatRequestBody, ModelProvider } from '@dsh/contracts'
import { clip } from './defuse.ts'

/** Characters of the final answer shown to the judge. */
export const JUDGE_ANSWER_CHARS = 4000

/** The judge's instructions. */
export const JUDGE_SYSTEM_PROMPT =
  "You decide whether an assistant's final answer answers the user's instruction. Be strict: a process report, a status update or a reflection that does not answer the instruction is off-topic. Reply with exactly ONTOPIC, or with OFFTOPIC: followed by a reason of at most 20 words."

/** Asks a model and returns its text. Must reject on failure and honour `signal`. */
export type JudgeModel = (request: { readonly system: string; readonly user: string; readonly signal: AbortSignal }) => Promise<string>

/** The judge's verdict. */
export type JudgeVerdict = { readonly onTopic: true } | { readonly onTopic: false; readonly reason: string }

/** The user message of a judgement. */
export function judgeQuestion(instruction: string, answer: string): string {
  return `Instruction:\n${instruction}\n\nFinal answer:\n${clip(answer, JUDGE_ANSWER_CHARS, '…').text}`
}

/** Parses the judge's reply; anything but a clear OFFTOPIC counts as on-topic (fail-open). */
export function parseVerdict(reply: string): JudgeVerdict {
  const match = /^\s*OFFTOPIC\b\s*[:：-]?\s*(.*)$/isu.exec(reply)
  if (match === null) return { onTopic: true }
  const reason = (match[1] ?? '').replace(/\s+/gu, ' ').trim()
  return { onTopic: false, reason: reason === '' ? 'no reason given' : clip(reason, 200, '…').text }
}

/** A judge over a model provider (a provider, or a function returning the current one). */
export function judgeModelOf(provider: ModelProvider | (() => ModelProvider), onRequest?: (body: ChatRequestBody) => void): JudgeModel {
  return async ({ system, user, signal }) => {
    const current = typeof provider === 'function' ? provider() : provider
    const body: ChatRequestBody = { model: current.model, messages: [{ role: 'system', content: system }, { role: 'user', content: user }] }
    onRequest?.(body)
    let text = ''
    for await (const event of current.stream({ body, turn: 0, step: 0 }, signal)) if (event.type === 'text') text += event.text
    return text
  }
}
