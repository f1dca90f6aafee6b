/**
 * A small structural checker for JSON values, used where a session load checks every line. A
 * shape description is compiled once into plain functions that walk a value without allocating
 * (zod's `safeParse` builds a copy of each value, which dominated loading 100,000 events); the
 * path of a problem is only put together when there is one. The answer is the first problem as
 * `path: expected X, got Y` (or `path: missing (expected X)`), or undefined when the value fits.
 * Objects are open: fields the shape does not name are allowed and ignored.
 */

/** What a value must look like. */
export type Shape =
  | 'string'
  | 'number'
  | 'count'
  | 'integer'
  | 'boolean'
  | 'unknown'
  | { readonly optional: Shape }
  | { readonly array: Shape }
  | { readonly object: { readonly [field: string]: Shape } }
  | { readonly literal: string }
  | { readonly oneOf: readonly string[] }
  | { readonly tagged: string; readonly cases: { readonly [tag: string]: { readonly [field: string]: Shape } } }
  | { readonly either: readonly Shape[]; readonly describe: string }

/** A problem found: the path segments from the problem up (reversed), what was expected, the value. */
interface Problem {
  readonly segments: string[]
  readonly expected: string
  readonly value: unknown
}

/** A compiled shape: undefined when the value fits. */
type Check = (value: unknown) => Problem | undefined

const problem = (expected: string, value: unknown): Problem => ({ segments: [], expected, value })

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

function describe(found: Problem, root: string): string {
  const path = [root, ...found.segments.toReversed()].filter((segment) => segment !== '').join('.') || 'value'
  if (found.value === undefined) return `${path}: missing (expected ${found.expected})`
  const value = typeof found.value === 'string' ? JSON.stringify(found.value.length > 40 ? `${found.value.slice(0, 39)}…` : found.value) : kindOf(found.value)
  return `${path}: expected ${found.expected}, got ${value}`
}

function fieldsCheck(fields: { readonly [field: string]: Shape }): Check {
  const checks = Object.entries(fields).map(([field, shape]) => [field, compile(shape)] as const)
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return problem('object', value)
    for (const [field, check] of checks) {
      const found = check(Object.hasOwn(value, field) ? (Reflect.get(value, field) as unknown) : undefined)
      if (found !== undefined) {
        found.segments.push(field)
        return found
      }
    }
    return undefined
  }
}

function compile(shape: Shape): Check {
  switch (shape) {
    case 'unknown':
      return () => undefined
    case 'string':
    case 'number':
    case 'boolean':
      return (value) => (typeof value === shape ? undefined : problem(shape, value))
    case 'integer':
      return (value) => (Number.isInteger(value) ? undefined : problem('integer', value))
    case 'count':
      return (value) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? undefined : problem('integer >= 0', value))
    default:
      break
  }
  if ('optional' in shape) {
    const inner = compile(shape.optional)
    return (value) => (value === undefined ? undefined : inner(value))
  }
  if ('array' in shape) {
    const item = compile(shape.array)
    return (value) => {
      if (!Array.isArray(value)) return problem('array', value)
      for (let index = 0; index < value.length; index++) {
        const found = item(value[index])
        if (found !== undefined) {
          found.segments.push(String(index))
          return found
        }
      }
      return undefined
    }
  }
  if ('object' in shape) return fieldsCheck(shape.object)
  if ('literal' in shape) {
    const expected = JSON.stringify(shape.literal)
    return (value) => (value === shape.literal ? undefined : problem(expected, value))
  }
  if ('either' in shape) {
    const options = shape.either.map(compile)
    return (value) => (options.some((option) => option(value) === undefined) ? undefined : problem(shape.describe, value))
  }
  if ('oneOf' in shape) {
    const allowed = new Set(shape.oneOf)
    const expected = `one of ${shape.oneOf.join(', ')}`
    return (value) => (typeof value === 'string' && allowed.has(value) ? undefined : problem(expected, value))
  }
  const cases = new Map(Object.entries(shape.cases).map(([tag, fields]) => [tag, fieldsCheck(fields)]))
  const unknownTag = fieldsCheck({ [shape.tagged]: { oneOf: Object.keys(shape.cases) } })
  return (value) => {
    const tag: unknown = typeof value === 'object' && value !== null && Object.hasOwn(value, shape.tagged) ? Reflect.get(value, shape.tagged) : undefined
    return ((typeof tag === 'string' ? cases.get(tag) : undefined) ?? unknownTag)(value)
  }
}

/** A compiled checker: `check(value, root)` is the first problem (its path starting at `root`), or undefined. */
export function shapeChecker(shape: Shape): (value: unknown, root: string) => string | undefined {
  const check = compile(shape)
  return (value, root) => {
    const found = check(value)
    return found === undefined ? undefined : describe(found, root)
  }
}
