/**
 * Order statistics for the benchmark report. The report shows medians and ratios of medians only;
 * the spread over rounds is printed next to them so a noisy machine is visible.
 */

/** Median (mean of the two middle values for an even count); NaN for an empty list. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = values.toSorted((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  const upper = sorted[middle] ?? Number.NaN
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? Number.NaN) + upper) / 2
}

/** Smallest and largest value. */
export function range(values: readonly number[]): { readonly min: number; readonly max: number } {
  return { min: Math.min(...values), max: Math.max(...values) }
}

/** Sum of a list. */
export const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0)
