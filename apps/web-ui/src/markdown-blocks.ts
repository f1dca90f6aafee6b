/**
 * Splits markdown into top-level blocks (source ranges) for incremental rendering: a block ends at
 * a blank line outside a code fence, and a fence is a block of its own from its opening to its
 * closing line. A block that ended never changes when text is appended, so a streamed answer is
 * re-split only from the start of its last (open) block.
 */

/** The blocks of a text. */
export interface BlockSplit {
  /** The text split. */
  readonly text: string
  /** Start offset of each block; the block runs to the next start (or the text's end). */
  readonly starts: readonly number[]
  /** The block sources, one per start (the last may still grow). */
  readonly blocks: readonly string[]
}

const fenceOpen = /^\s{0,3}(`{3,}|~{3,})/

function scan(text: string, from: number): number[] {
  const starts: number[] = []
  let blockStart = -1
  let fence: string | undefined
  let at = from
  while (at < text.length) {
    const end = text.indexOf('\n', at)
    const lineEnd = end < 0 ? text.length : end
    const line = text.slice(at, lineEnd)
    const next = end < 0 ? text.length : end + 1
    if (fence !== undefined) {
      if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') {
        fence = undefined
        blockStart = -1
      }
    } else {
      const open = fenceOpen.exec(line)
      if (open !== null) {
        starts.push(at)
        fence = open[1]
        blockStart = at
      } else if (line.trim() === '') blockStart = -1
      else if (blockStart < 0) {
        starts.push(at)
        blockStart = at
      }
    }
    at = next
  }
  return starts
}

/** Splits `text`, reusing `previous` when `text` extends it (only its last block is scanned again). */
export function splitBlocks(text: string, previous?: BlockSplit): BlockSplit {
  const grows = previous !== undefined && text.length >= previous.text.length && text.startsWith(previous.text)
  const keep = grows ? Math.max(0, previous.starts.length - 1) : 0
  const from = grows && keep < previous.starts.length ? (previous.starts[keep] ?? 0) : 0
  const starts = [...(grows ? previous.starts.slice(0, keep) : []), ...scan(text, from)]
  const blocks = starts.map((start, index) => {
    const reused = grows && index < keep ? previous.blocks[index] : undefined
    return reused ?? text.slice(start, starts[index + 1] ?? text.length).replace(/\n+$/, '')
  })
  return { text, starts, blocks }
}
