/**
 * `claude` and `codex` typed alone in a terminal open their interactive session, and `claude
 * "fix the test"` opens it with that first message; people bring the habit. In a terminal (stdin
 * and stdout both TTYs) `dsh` with no command is therefore `dsh chat`: alone, with chat options
 * (`dsh --model …`, `dsh --resume ID`), or with a prompt of several words as its last argument
 * (`dsh "fix the test"`). A single unknown word (`dsh sesions`) stays an unknown command, so a
 * typo never becomes a message to the model; outside a terminal nothing changes (a script gets
 * usage errors, not a chat). Help and version flags, and `-p` (print-alias.ts), are left alone.
 */

/** Root options that come before a command (`--dsh-home DIR`), with whether they take a value. */
const ROOT_OPTIONS: ReadonlyMap<string, boolean> = new Map([['--dsh-home', true]])

const LEFT_ALONE = new Set(['-h', '--help', '-v', '--version', '-p', '--print'])

/** `argv` with `chat` inserted after the root options when the invocation means the chat. */
export function interactiveAlias(argv: readonly string[], commands: ReadonlySet<string>, interactive: boolean): readonly string[] {
  if (!interactive) return argv
  let at = 0
  while (at < argv.length) {
    const word = argv[at] ?? ''
    const name = word.split('=')[0] ?? word
    const takesValue = ROOT_OPTIONS.get(name)
    if (takesValue === undefined) break
    at += takesValue && !word.includes('=') ? 2 : 1
  }
  const rest = argv.slice(at)
  for (const word of rest) {
    if (word === '--') break
    if (commands.has(word) || LEFT_ALONE.has(word)) return argv
  }
  const last = rest.at(-1)
  const chat = rest.length === 0 || (rest[0]?.startsWith('-') ?? false) || (last !== undefined && !last.startsWith('-') && /\s/.test(last.trim()))
  return chat ? [...argv.slice(0, at), 'chat', ...rest] : argv
}
