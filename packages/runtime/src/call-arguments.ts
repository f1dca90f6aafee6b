/**
 * Reading a tool call's arguments for approvals: a string argument by name, and the host a
 * `web_fetch` URL names (lower case, no trailing dot; only for an http(s) URL with a host).
 */
import type { ToolExecution } from '@dsh/contracts'

/** The argument `key` of a call, when it is a string. */
export function stringArgument(execution: ToolExecution, key: string): string | undefined {
  const args = execution.arguments
  if (typeof args !== 'object' || args === null || !Object.hasOwn(args, key)) return undefined
  const value: unknown = Object.getOwnPropertyDescriptor(args, key)?.value
  return typeof value === 'string' ? value : undefined
}

/** The host of an http(s) `url`, or undefined for anything else. */
export function fetchHost(url: string): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    // Not a URL: the tool refuses it, so there is no host to remember or cover.
    return undefined
  }
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '')
  return (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || host === '' ? undefined : host
}
