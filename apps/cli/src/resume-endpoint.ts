/**
 * `--resume` keeps the endpoint: the model spec and base URL a stored session last ran with
 * (its latest `request/header`; the key is never stored) are used again unless `--model`,
 * `--base-url` or the config file choose otherwise, and a line on stderr says so when the choice
 * differs from the stored one.
 */
import type { SessionStore } from '@dsh/runtime'
import { dataOf } from '@dsh/runtime'

/** The endpoint a session last used. */
export interface StoredEndpoint {
  /** `deepseek:<model>` or `openai:<model>`. */
  readonly spec: string
  /** Base URL, when the provider has one. */
  readonly baseUrl?: string
}

/** The endpoint of the session's latest request, or undefined (none yet, scripted, unreadable). */
export function storedEndpoint(store: SessionStore, id: string): StoredEndpoint | undefined {
  let events
  try {
    events = store.load(id).events
  } catch {
    // Swallows a session that cannot be read here: the resume itself reports it in its own words.
    return undefined
  }
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index]
    const header = event === undefined ? undefined : dataOf(event, 'request/header')
    if (header === undefined) continue
    if (header.provider !== 'deepseek' && header.provider !== 'openai') return undefined
    return { spec: `${header.provider}:${header.model}`, ...(header.baseUrl === undefined ? {} : { baseUrl: header.baseUrl }) }
  }
  return undefined
}

/** What the person chose for this run (flags first, then the config file). */
export interface ChosenEndpoint {
  readonly spec?: string | undefined
  readonly baseUrl?: string | undefined
}

const where = (url: string | undefined): string => (url === undefined ? '' : ` at ${url}`)

/** The spec and base URL to run with, and the line to print when they differ from the stored ones. */
export function resumeEndpoint(stored: StoredEndpoint | undefined, chosen: ChosenEndpoint, id: string): { spec?: string; baseUrl?: string; note?: string } {
  if (stored === undefined) return { ...(chosen.spec === undefined ? {} : { spec: chosen.spec }), ...(chosen.baseUrl === undefined ? {} : { baseUrl: chosen.baseUrl }) }
  const spec = chosen.spec ?? stored.spec
  const sameProvider = spec.split(':')[0] === stored.spec.split(':')[0]
  // A stored base URL belongs to its provider: another provider starts from its own default.
  const baseUrl = chosen.baseUrl ?? (sameProvider ? stored.baseUrl : undefined)
  const differs = spec !== stored.spec || (chosen.baseUrl !== undefined && chosen.baseUrl !== stored.baseUrl)
  const note = differs ? `note: session ${id} ran with ${stored.spec}${where(stored.baseUrl)}; this run uses ${spec}${where(baseUrl)} (--model, --base-url or the config file)` : undefined
  return { spec, ...(baseUrl === undefined ? {} : { baseUrl }), ...(note === undefined ? {} : { note }) }
}
