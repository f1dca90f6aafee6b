/**
 * What one simple command of a bash line runs, for "allow always" offers and allow rules: the
 * shell's reserved words in front of it (`if`, `then`, `do`, `while`, `time`, `!`, …) are not the
 * program, a part that is only a reserved word (`fi`, `done`, `else`) or a loop header
 * (`for f in *.ts`) runs nothing, and a program that runs its arguments as a command (`timeout`,
 * `env`, `sudo`, `xargs`, `bash -c`, `eval`, …) must never be what a prefix approves: "allow
 * `timeout …`" would allow `timeout 5 rm -rf src`. Output redirected into a file is noted (an
 * approval of `echo …` is no approval to overwrite `src/a.ts`), and unquoted parentheses
 * (subshells, `f () { …; }`) make a part opaque. A plain reading of words, not a parser.
 */

/** Reserved words that may stand before a command of the same simple command. */
const LEADING = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', 'time', '!', '{'])

/** Reserved words that end a compound command: a part made of them alone runs nothing. */
const CLOSING = new Set(['fi', 'done', 'esac', '}', 'then', 'else', 'do'])

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
  /**
   * A command: `text` without the reserved words before its program (`if grep -q x f` → `grep -q
   * x f`); `writesFile` when it redirects output into a file (`> out`, `>> log`, `&> f`, `<> f`;
   * not `2>&1` or `> /dev/null`).
   */
  | { readonly kind: 'command'; readonly text: string; readonly program: string; readonly writesFile: boolean }
  /** Runs nothing itself: reserved words alone, or a `for NAME [in WORDS]` header. */
  | { readonly kind: 'nothing' }
  /** Syntax no rule may allow (`case`, `function`, `[[`, an unquoted parenthesis: a subshell or a function definition, …). */
  | { readonly kind: 'opaque' }

/** The last path component of a program (`/usr/bin/timeout` → `timeout`). */
export const programName = (word: string): string => word.slice(word.lastIndexOf('/') + 1)

/**
 * `command` with every quoted or escaped character (quotes included) replaced by `q`: what is left
 * is the syntax the shell acts on (`echo "a > b"` → `echo qqqqqqq`).
 */
export function unquoted(command: string): string {
  let out = ''
  let quote: '"' | "'" | "$'" | undefined
  for (let i = 0; i < command.length; i += 1) {
    const char = command.charAt(i)
    if (quote === undefined) {
      if (char === '\\') {
        out += 'qq'
        i += 1
      } else if (char === '$' && command.charAt(i + 1) === "'") {
        quote = "$'"
        out += 'qq'
        i += 1
      } else if (char === '"' || char === "'") {
        quote = char
        out += 'q'
      } else out += char
      continue
    }
    if (char === '\\' && quote !== "'") {
      out += 'qq'
      i += 1
    } else {
      if (char === (quote === '"' ? '"' : "'")) quote = undefined
      out += 'q'
    }
  }
  return out
}

/** Redirection targets that are no file of the workspace. */
const HARMLESS_TARGETS: ReadonlySet<string> = new Set(['/dev/null', '/dev/stdout', '/dev/stderr'])

/** True when unquoted syntax `bare` redirects output into a file (any target but those above or a descriptor). */
export function redirectsIntoFile(bare: string): boolean {
  for (let i = 0; i < bare.length; i += 1) {
    if (bare.charAt(i) !== '>') continue
    let at = i + 1
    if (bare.charAt(at) === '>' || bare.charAt(at) === '|') at += 1
    if (bare.charAt(at) === '&') {
      // `>&2`, `2>&1`, `>&-` duplicate or close a descriptor; `>&word` writes the file word.
      const word = /^[^\s;&|<>]*/.exec(bare.slice(at + 1))?.[0] ?? ''
      if (!/^(\d+|-)$/.test(word)) return true
      i = at
      continue
    }
    const target = /^\s*([^\s;&|<>]*)/.exec(bare.slice(at))?.[1] ?? ''
    if (!HARMLESS_TARGETS.has(target)) return true
    i = at - 1
  }
  return false
}

/** Reads one simple command (whitespace collapsed, as the shell reading yields it). */
export function commandPart(command: string): CommandPart {
  const bare = unquoted(command)
  // A parenthesis outside quotes opens a subshell, a function definition (`f () { …; }`) or a
  // pattern list: syntax whose parts this reading does not follow.
  if (/[()]/.test(bare)) return { kind: 'opaque' }
  const words = command.trim().split(/\s+/).filter((word) => word !== '')
  let start = 0
  while (start < words.length) {
    const word = words[start] ?? ''
    if (LEADING.has(word)) start += 1
    else if (/^[{!]+$/.test(word)) start += 1
    else break
  }
  const rest = words.slice(start)
  const [first] = rest
  if (first === undefined) return { kind: 'nothing' }
  if (rest.every((word) => CLOSING.has(word))) return { kind: 'nothing' }
  if (first === 'for') return /^[A-Za-z_]\w*$/.test(rest[1] ?? '') && (rest.length === 2 || rest[2] === 'in') ? { kind: 'nothing' } : { kind: 'opaque' }
  if (CLOSING.has(first)) {
    // `done < list.txt`: a loop that reads its input from a file runs nothing more; any other tail
    // (`done > out.txt`, `fi; x` cannot reach here) is syntax this reading does not follow.
    const tail = rest.slice(rest.findIndex((word) => !CLOSING.has(word))).join(' ')
    return /^(?:\d*<\s*[^\s<>&|;]+\s*)+$/.test(tail) && !redirectsIntoFile(unquoted(tail)) ? { kind: 'nothing' } : { kind: 'opaque' }
  }
  if (OPAQUE.has(first) || first.endsWith('()')) return { kind: 'opaque' }
  return { kind: 'command', text: rest.join(' '), program: programName(first), writesFile: redirectsIntoFile(bare) }
}

/** True for a word the shell reads as syntax where a command starts (`if`, `done`, `for`, `{`, …). */
export const isReservedWord = (word: string): boolean => LEADING.has(word) || CLOSING.has(word) || OPAQUE.has(word) || word === 'for'

/** True when approving `program` by prefix would approve whatever command it is given. */
export const runsOtherCommands = (program: string): boolean => COMMAND_RUNNERS.has(programName(program))
