/**
 * UTF-8 helpers: byte length of a JS string and the longest prefix that never splits a code
 * point (a cut never leaves a lone surrogate, so the encoded bytes stay valid UTF-8).
 */

/** UTF-8 byte length. */
export const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8')

/** Moves a UTF-16 cut index left so it does not split a surrogate pair. */
export function safeCut(text: string, index: number): number {
  if (index <= 0) return 0
  if (index >= text.length) return text.length
  const before = text.charCodeAt(index - 1)
  return before >= 0xd800 && before <= 0xdbff ? index - 1 : index
}

/**
 * Largest safe prefix length `n` of `text` for which `fits(text.slice(0, n))` holds, assuming
 * `fits` is monotonic (a longer prefix never fits when a shorter one does not). 0 when none fits.
 */
export function longestFittingPrefix(text: string, fits: (prefix: string) => boolean): number {
  let low = 0
  let high = text.length
  while (low < high) {
    const mid = Math.ceil((low + high) / 2)
    if (fits(text.slice(0, safeCut(text, mid)))) low = mid
    else high = mid - 1
  }
  return safeCut(text, low)
}
