/**
 * Freezes plain objects and arrays recursively, so a value handed out by `get()` cannot be mutated
 * behind the store's back (which would also defeat the change detection).
 */

/** Freezes `value` and every plain object or array inside it; returns `value`. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value
  const prototype: unknown = Object.getPrototypeOf(value)
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return value
  Object.freeze(value)
  for (const inner of Object.values(value)) deepFreeze(inner)
  return value
}
