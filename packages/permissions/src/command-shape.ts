/**
 * Deny rules by the shape of a command, not its spelling (issue 19, item 8): a simple command is
 * read as its program (by name: `/bin/rm` is `rm`), its options as a set (bundles split: `-rf` is
 * `-r -f`; known long forms and aliases mapped to their letter: `--recursive`, `-R` → `-r` for
 * `rm`; `--` ends the options) and its other words in order, with git's global options before the
 * subcommand left out (`git -C dir -c k=v --git-dir=x push` is `git push`). A deny pattern made
 * of plain words, optionally ending in `*` or `:*` (`rm -rf*`, `git push:*`), matches a command
 * with the same program, every option the pattern names, and the pattern's other words as the
 * first of the command's (exactly all of them, and no other option, without the final `*`).
 * Patterns with a `*` elsewhere are left to the text match alone. Used for deny rules only:
 * seeing more spellings as the denied command can only deny more.
 */
import { shellWords } from './shell-words.ts'

/** Per program: an option (long form, or a short letter) → the letter it stands for. */
const aliases: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  ['rm', new Map([['--recursive', 'r'], ['R', 'r'], ['--force', 'f'], ['--dir', 'd'], ['--interactive', 'i'], ['--verbose', 'v']])],
  ['cp', new Map([['--recursive', 'r'], ['R', 'r'], ['--force', 'f']])],
  ['mv', new Map([['--force', 'f']])],
  ['chmod', new Map([['--recursive', 'R']])],
  ['chown', new Map([['--recursive', 'R']])],
  ['git', new Map([['--force', 'f'], ['--all', 'a'], ['--delete', 'd'], ['--hard', '--hard']])],
])

/** git's options before the subcommand that take a value as the next word. */
const gitValued = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--exec-path', '--list-cmds'])

/** A command read as program, option set and other words. */
interface Shape {
  readonly program: string
  readonly options: ReadonlySet<string>
  readonly words: readonly string[]
}

const baseName = (program: string): string => program.slice(program.lastIndexOf('/') + 1)

/** The index of git's subcommand (after its global options). */
function afterGitGlobals(words: readonly string[]): number {
  let index = 1
  while (index < words.length) {
    const word = words[index] ?? ''
    if (!word.startsWith('-') || word === '-') break
    if (word === '--') return index + 1
    index += gitValued.has(word) ? 2 : 1
  }
  return index
}

function shapeOf(all: readonly string[]): Shape | undefined {
  const first = all[0]
  if (first === undefined || first === '') return undefined
  const program = baseName(first)
  const table = aliases.get(program)
  const start = program === 'git' ? afterGitGlobals(all) : 1
  const options = new Set<string>()
  const words: string[] = []
  let ended = false
  for (const word of all.slice(start)) {
    if (ended || word === '-' || !word.startsWith('-')) {
      words.push(word)
      continue
    }
    if (word === '--') {
      ended = true
      continue
    }
    if (word.startsWith('--')) {
      const name = word.split('=')[0] ?? word
      options.add(table?.get(name) ?? name)
      continue
    }
    for (const letter of word.slice(1)) options.add(table?.get(letter) ?? letter)
  }
  return { program, options, words }
}

/** The shape of a deny pattern and whether it ends open (`*`, `:*`), or undefined when it has other wildcards. */
function patternShape(pattern: string): { readonly shape: Shape; readonly open: boolean } | undefined {
  let text = pattern.trim()
  let open = false
  if (text.endsWith(':*')) {
    text = text.slice(0, -2)
    open = true
  } else if (text.endsWith('*')) {
    text = text.slice(0, -1)
    open = true
  }
  if (text.includes('*')) return undefined
  const shape = shapeOf(shellWords(text))
  return shape === undefined ? undefined : { shape, open }
}

/** True when the simple command `command` has the shape deny `pattern` names. */
export function shapeMatches(pattern: string, command: string): boolean {
  const wanted = patternShape(pattern)
  const shape = shapeOf(shellWords(command))
  if (wanted === undefined || shape === undefined || wanted.shape.program !== shape.program) return false
  const { options, words } = wanted.shape
  for (const option of options) if (!shape.options.has(option)) return false
  if (words.some((word, index) => shape.words[index] !== word)) return false
  if (wanted.open) return true
  return shape.words.length === words.length && shape.options.size === options.size
}
