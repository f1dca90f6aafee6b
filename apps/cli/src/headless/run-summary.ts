/**
 * What the `result` line says about a run, read from the session log's events of the run (those
 * after `fromSeq`): steps, token usage and refused tool calls. Usage is summed from each
 * `assistant/message`'s `usage` as the provider reported it: `cacheHitTokens` when the provider
 * reports cache hits (DeepSeek), and `cacheMissTokens` when it reports misses; a provider that
 * reports hits but not misses gets misses as input minus hits, and one that reports neither gets
 * nulls (unknown, not zero).
 */
import type { SessionEvent } from '@dsh/contracts'
import type { PermissionDenialLine, UsageLine } from './stream-json-types.ts'

/** Counts of one run. */
export interface RunSummary {
  readonly numSteps: number
  readonly usage: UsageLine
  readonly permissionDenials: readonly PermissionDenialLine[]
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return isRecord(value) ? value : undefined
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined
}

/** Sums usage over the `assistant/message` events. */
function usageOf(events: readonly SessionEvent[]): UsageLine {
  let input = 0
  let output = 0
  let hit: number | undefined
  let miss: number | undefined
  for (const event of events) {
    if (event.type !== 'assistant/message') continue
    const usage = record(record(event.data)?.['usage'])
    if (usage === undefined) continue
    const inputTokens = count(usage['inputTokens']) ?? 0
    input += inputTokens
    output += count(usage['outputTokens']) ?? 0
    const hits = count(usage['cacheHitTokens'])
    const misses = count(usage['cacheMissTokens']) ?? (hits === undefined ? undefined : Math.max(0, inputTokens - hits))
    if (hits !== undefined) hit = (hit ?? 0) + hits
    if (misses !== undefined) miss = (miss ?? 0) + misses
  }
  return { input_tokens: input, output_tokens: output, cache_hit_tokens: hit ?? null, cache_miss_tokens: miss ?? null }
}

/** Refusals: `tool/permission` denials and hook denials (`hooks/decision` with `decision: deny`). */
function denialsOf(events: readonly SessionEvent[]): PermissionDenialLine[] {
  const denials: PermissionDenialLine[] = []
  for (const event of events) {
    const data = record(event.data)
    if (data === undefined || data['decision'] !== 'deny') continue
    if (event.type === 'tool/permission') {
      const rule = typeof data['rule'] === 'string' ? { reason: data['rule'] } : {}
      denials.push({ tool_name: String(data['tool']), tool_use_id: String(data['callId']), by: String(data['by']), ...rule })
    } else if (event.type === 'hooks/decision' && typeof data['callId'] === 'string') {
      const reason = typeof data['reason'] === 'string' ? { reason: data['reason'] } : {}
      denials.push({ tool_name: String(data['tool']), tool_use_id: data['callId'], by: 'hook', ...reason })
    }
  }
  return denials
}

/** The summary of the events with `seq > fromSeq`. */
export function summarizeRun(events: readonly SessionEvent[], fromSeq: number): RunSummary {
  const own = events.filter((event) => event.seq > fromSeq)
  return { numSteps: own.filter((event) => event.type === 'step/end').length, usage: usageOf(own), permissionDenials: denialsOf(own) }
}
