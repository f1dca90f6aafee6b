/**
 * Whether a server tool's input schema can be offered to the model: the chat-completions API
 * rejects a whole request when one tool's parameters are not a JSON object schema, so such a tool
 * is left out (with one warning) instead. Returns the wire schema (without `$schema`) or the reason.
 */

/** The wire parameters of a tool, or why the model API would reject them. */
export function wireParameters(schema: unknown): { readonly ok: true; readonly parameters: Record<string, unknown> } | { readonly ok: false; readonly reason: string } {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return { ok: false, reason: 'its input schema is not an object' }
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- checked just above: a non-null, non-array object
  const { $schema: _dialect, ...parameters } = schema as Record<string, unknown>
  const replaced = parameters['x-dsh-invalid-schema']
  if (typeof replaced === 'string') return { ok: false, reason: replaced }
  if (parameters.type !== 'object') return { ok: false, reason: `its input schema has type ${JSON.stringify(parameters.type ?? null)}, not "object"` }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'enum', 'not']) {
    if (key in parameters) return { ok: false, reason: `its input schema has "${key}" at the top level` }
  }
  const properties = parameters.properties
  if (properties !== undefined && (typeof properties !== 'object' || properties === null || Array.isArray(properties))) return { ok: false, reason: 'its input schema\'s "properties" is not an object' }
  try {
    JSON.stringify(parameters)
  } catch {
    // A cyclic or otherwise unserialisable schema cannot be sent.
    return { ok: false, reason: 'its input schema cannot be serialised' }
  }
  return { ok: true, parameters }
}
