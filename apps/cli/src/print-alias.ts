/**
 * The spellings people bring from other agents: Claude Code's print mode (`claude -p PROMPT`,
 * `--print`) is `dsh run PROMPT`, so `dsh -p …` and `dsh --print …` are read as `dsh run …` when
 * no command comes before the flag (Codex's `codex exec` is the `exec` alias of `run`).
 */

/** `argv` with a leading `-p` / `--print` turned into the `run` command. */
export function printAlias(argv: readonly string[], commands: ReadonlySet<string>): readonly string[] {
  for (const [index, word] of argv.entries()) {
    if (word === '--' || commands.has(word)) return argv
    if (word === '-p' || word === '--print') return ['run', ...argv.slice(0, index), ...argv.slice(index + 1)]
  }
  return argv
}
