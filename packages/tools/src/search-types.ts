/**
 * Types shared by the search tools' engines (ripgrep and the built-in walker) and renderers.
 */
import type { SecretPathCheck } from './search-filter.ts'

/** Options of `createGrepTool` / `createGlobTool` (the defaults suit the CLI). */
export interface SearchToolOptions {
  /**
   * The rg binary. Default: the one `@vscode/ripgrep` installs. When it cannot run (missing,
   * not executable) the tool uses the built-in walker and says so in the result.
   */
  readonly ripgrepPath?: string
  /** Per-call time limit in milliseconds (rg is killed when it is reached). Default 30000. */
  readonly timeLimitMs?: number
  /** Secret locations never searched or listed (the permission layer's check, when it has one). */
  readonly isSecretPath?: SecretPathCheck
  /**
   * Whether a secret location lies at or below the canonical `root`, or `root` inside one. When it
   * says no, a search of `root` skips the per-file check (tens of thousands of listed paths).
   * Absent: every file is checked.
   */
  readonly secretsUnder?: (root: string) => boolean
  /** JSON bytes grep's content mode reads in one rg pass before it takes two (default 2 MiB; tests pass 0 to force two). */
  readonly onePassMaxBytes?: number
}

/** One file with matches. */
export interface FileHit {
  /** Path as shown to the model: relative to the working directory (absolute when outside it). */
  readonly display: string
  /** Absolute path. */
  readonly absolute: string
  /** Matching lines (multiline: matches). */
  readonly count: number
}

/** One shown match: consecutive lines starting at `line` (more than one only in multiline mode). */
export interface ContentEntry {
  /** The file's display path. */
  readonly display: string
  /** Number of the first line. */
  readonly line: number
  /** The lines' text without line ends. */
  readonly lines: readonly string[]
  /** UTF-16 index in `lines[0]` where the match starts (for the window on a long line). */
  readonly matchStart: number
}

/** Counts of files left out, for the notes. */
export interface SkipCounts {
  tooLarge: number
  binary: number
  unreadable: number
  brokenLinks: number
  env: number
  secret: number
  patternLimit: number
}

/** A zeroed {@link SkipCounts}. */
export function noSkips(): SkipCounts {
  return { tooLarge: 0, binary: 0, unreadable: 0, brokenLinks: 0, env: 0, secret: 0, patternLimit: 0 }
}
