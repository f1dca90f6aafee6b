/**
 * Keeps one bad tool from hiding a whole server: the SDK validates a `tools/list` result as a
 * whole, so a single tool whose input schema is not a JSON object schema would fail the listing.
 * This guard sits on a transport and rewrites such a tool's schema, before the SDK sees it, into
 * an object schema that carries the reason ({@link INVALID_SCHEMA_KEY}); schema-check.ts then
 * leaves the tool out with one warning naming it.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client'
import { wireParameters } from './schema-check.ts'

/** The key whose value says why the server's own schema was replaced. */
export const INVALID_SCHEMA_KEY = 'x-dsh-invalid-schema'

type Handler = NonNullable<Transport['onmessage']>

function repaired(tool: unknown): unknown {
  if (typeof tool !== 'object' || tool === null) return tool
  const checked = wireParameters(Reflect.get(tool, 'inputSchema'))
  if (checked.ok) return tool
  return { ...tool, inputSchema: { type: 'object', properties: {}, [INVALID_SCHEMA_KEY]: checked.reason } }
}

/** Installs the guard on `transport` (before the client connects it). */
export function guardToolLists(transport: Transport): Transport {
  const listIds = new Set<string | number>()
  const send = transport.send.bind(transport)
  transport.send = (message, options) => {
    if ('method' in message && message.method === 'tools/list' && 'id' in message) listIds.add(message.id)
    return send(message, options)
  }
  let handler: Handler | undefined
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler,
    set: (next: Handler | undefined) => {
      handler = next === undefined ? undefined : (message, extra) => next(fix(message), extra)
    },
  })
  const fix = <T extends JSONRPCMessage>(message: T): T => {
    if (!('id' in message) || !('result' in message) || !listIds.delete(message.id)) return message
    const result: unknown = message.result
    if (typeof result !== 'object' || result === null) return message
    const tools: unknown = Reflect.get(result, 'tools')
    if (!Array.isArray(tools)) return message
    return { ...message, result: { ...result, tools: tools.map(repaired) } }
  }
  return transport
}
