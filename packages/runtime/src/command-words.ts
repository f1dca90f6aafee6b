/**
 * What one simple command of a bash line runs, for "allow always" offers and allow rules: the
 * shell's reserved words in front of it (`if`, `then`, `do`, `while`, `time`, `!`, …) are not the
 * program, a part that is only a reserved word (`fi`, `done`, `else`) or a loop header
 * (`for f in *.ts`) runs nothing, and a program that runs its arguments as a command (`timeout`,
 * `env`, `sudo`, `xargs`, `bash -c`, `eval`, …) must never be what a prefix approves: "allow
 * `timeout …`" would allow `timeout 5 rm -rf src`. A plain reading of words, not a parser; the
 * caller has already refused quotes it cannot follow where that matters.
 */

/** Reserved words that may stand before a command of the same simple command. */
const LEADING = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', 'time', '!', '{', '('])

/** Reserved words that end a compound command: a part made of them alone runs nothing. */
const CLOSING = new Set(['fi', 'done', 'esac', '}', ')', 'then', 'else', 'do'])

/** Reserved words that open syntax this reading does not follow (a rule never allows them). */
const OPAQUE = new Set(['case', 'function', 'coproc', 'select', '[['])

/**
 * Programs that run another command named in their arguments (wrappers, shells, `eval`,
 * `source`): a prefix of theirs covers any command. The deny side sees through the common ones
 * (permissions' deny-candidates.ts); the allow side never approves them by prefix.
 */
export const COMMAND_RUNNERS: ReadonlySet<string> = new Set([
  'env', 'sudo', 'doas', 'su', 'runuser', 'setpriv', 'nice', 'ionice', 'renice', 'chrt', 'taskset', 'timeout', 'nohup', 'setsid',
  'stdbuf', 'unbuffer', 'command', 'builtin', 'exec', 'eval', 'source', '.', 'xargs', 'parallel', 'watch', 'flock', 'chroot',
  'unshare', 'nsenter', 'strace', 'ltrace', 'script', 'time', 'sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'fish', 'busybox',
])

/** What one simple command amounts to. */
export type CommandPart =
  /** A command: `text` without the reserved words before its program (`if grep -q x f` → `grep -q x f`). */
  | { readonly kind: 'command'; readonly text: string; readonly program: string }
  /** Runs nothing itself: reserved words alone, or a `for NAME [in WORDS]` header. */
  | { readonly kind: 'nothing' }
  /** Syntax no rule may allow (`case`, `function`, `[[`, …). */
  | { readonly kind: 'opaque' }

/** The last path component of a program (`/usr/bin/timeout` → `timeout`). */
export const programName = (word: string): string => word.slice(word.lastIndexOf('/') + 1)

/** Reads one simple command (whitespace collapsed, as the shell reading yields it). */
export function commandPart(command: string): CommandPart {
  const words = command.trim().split(/\s+/).filter((word) => word !== '')
  let start = 0
  while (start < words.length) {
    const word = words[start] ?? ''
    if (LEADING.has(word)) start += 1
    else if (/^[({!]+$/.test(word)) start += 1
    else break
  }
  const rest = words.slice(start)
  const [first] = rest
  if (first === undefined) return { kind: 'nothing' }
  if (rest.every((word) => CLOSING.has(word))) return { kind: 'nothing' }
  if (first === 'for') return /^[A-Za-z_]\w*$/.test(rest[1] ?? '') && (rest.length === 2 || rest[2] === 'in') ? { kind: 'nothing' } : { kind: 'opaque' }
  if (OPAQUE.has(first) || CLOSING.has(first) || first.endsWith('()')) return { kind: 'opaque' }
  return { kind: 'command', text: rest.join(' '), program: programName(first) }
}

/** True for a word the shell reads as syntax where a command starts (`if`, `done`, `for`, `{`, …). */
export const isReservedWord = (word: string): boolean => LEADING.has(word) || CLOSING.has(word) || OPAQUE.has(word) || word === 'for'

/** True when approving `program` by prefix would approve whatever command it is given. */
export const runsOtherCommands = (program: string): boolean => COMMAND_RUNNERS.has(programName(program))
