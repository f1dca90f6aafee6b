/**
 * Human times and sizes for session listings (`dsh sessions list`, the chat's picker and
 * `/sessions`): "just now", "42 s ago", "3 min ago", "5 h ago", "2 d ago", and the
 * calendar date (UTC) for anything older than 30 days or in the future (a clock that moved back).
 */

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** How long before `now` the instant `then` was, in the coarsest unit that fits. */
export function relativeTime(then: Date, now: Date): string {
  const elapsed = now.getTime() - then.getTime()
  if (elapsed < 0 || elapsed >= 30 * DAY) return then.toISOString().slice(0, 10)
  if (elapsed < 5_000) return 'just now'
  if (elapsed < MINUTE) return `${Math.floor(elapsed / 1000)} s ago`
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)} min ago`
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)} h ago`
  return `${Math.floor(elapsed / DAY)} d ago`
}

/** Byte counts as "812 B", "14 KB", "3.2 MB", "1.1 GB" (powers of 1024). */
export function byteSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return unit === 0 || value >= 10 ? `${Math.round(value)} ${units[unit]}` : `${value.toFixed(1)} ${units[unit]}`
}
