/** One-word-or-so text of a server state (what `dsh mcp list`, `/mcp` and the web page show). */
import type { ServerState } from './types.ts'

/** `connected, 3 tools`, `failed: REASON`, `untrusted`, `disabled`, `starting`. */
export function describeState(state: ServerState): string {
  switch (state.kind) {
    case 'connected':
      return `connected, ${state.tools} tool${state.tools === 1 ? '' : 's'}`
    case 'failed':
      return `failed: ${state.reason}`
    default:
      return state.kind
  }
}
