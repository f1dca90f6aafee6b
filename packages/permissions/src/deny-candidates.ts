/**
 * What a deny rule is matched against for one simple command of a bash line (rule-match.ts): the
 * command as written, and its program part as bash would run it — quotes and escapes removed
 * (`"rm" -rf`, `r\m -rf`), after grouping characters, shell keywords, variable assignments and
 * wrapper commands that run their arguments as a command (`env`, `sudo`, `nohup`, `nice -n 5`,
 * `timeout 5s`, `xargs`, …), with a path program also by its name (`/bin/rm` → `rm`); for
 * `bash -c SCRIPT`, `sh -c SCRIPT` and `eval ARGS`, the simple commands of the script, read the
 * same way. A guard against mistakes, not a boundary: a command can still be spelled past it.
 */
import { readShell } from './shell-segments.ts'
import { shellWords } from './shell-words.ts'

const keywords = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', 'time', '!', '{', '('])
const assignment = /^[A-Za-z_]\w*=/

/** Wrappers that run the rest of their arguments as a command, with their options that take a value. */
const wrappers: ReadonlyMap<string, { readonly valued: readonly string[]; readonly positional?: number }> = new Map([
  ['env', { valued: ['-u', '--unset', '-C', '--chdir'] }],
  ['sudo', { valued: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U'] }],
  ['doas', { valued: ['-u', '-C'] }],
  ['nice', { valued: ['-n', '--adjustment'] }],
  ['timeout', { valued: ['-s', '--signal', '-k', '--kill-after'], positional: 1 }],
  ['nohup', { valued: [] }],
  ['command', { valued: [] }],
  ['builtin', { valued: [] }],
  ['exec', { valued: ['-a'] }],
  ['setsid', { valued: [] }],
  ['stdbuf', { valued: ['-i', '-o', '-e'] }],
  ['xargs', { valued: ['-I', '-n', '-P', '-d', '-L', '-s', '-a', '-E'] }],
])

const shells = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh'])

/** How deep `bash -c "sh -c '…'"` is followed. */
const maxDepth = 4

const baseName = (program: string): string => program.slice(program.lastIndexOf('/') + 1)

/** The index of the word after a wrapper's options and positional arguments. */
function afterWrapper(words: readonly string[], start: number, wrapper: { readonly valued: readonly string[]; readonly positional?: number }): number {
  let index = start + 1
  while (index < words.length) {
    const word = words[index] ?? ''
    if (word === '--') return index + 1
    if (word.startsWith('-') && word.length > 1) index += wrapper.valued.includes(word) ? 2 : 1
    else if (assignment.test(word)) index += 1
    else break
  }
  return index + (wrapper.positional ?? 0)
}

/** The script of `sh -c SCRIPT` (options before it may be combined: `-lc`), if any. */
function shellScript(words: readonly string[], start: number): string | undefined {
  let command = false
  for (let index = start + 1; index < words.length; index += 1) {
    const word = words[index] ?? ''
    if (/^-[a-zA-Z]+$/.test(word)) {
      if (word.includes('c')) command = true
      continue
    }
    return command ? word : undefined
  }
  return undefined
}

function fromWords(words: readonly string[], depth: number, out: string[]): void {
  let index = 0
  while (index < words.length) {
    const word = (index === 0 ? words[0]?.replace(/^[({!]+/, '') : words[index]) ?? ''
    if (word === '' || keywords.has(word) || assignment.test(word)) {
      index += 1
      continue
    }
    const rest = [word, ...words.slice(index + 1)]
    out.push(rest.join(' '))
    const program = baseName(word)
    if (program !== word) out.push([program, ...rest.slice(1)].join(' '))
    const script = shells.has(program) ? shellScript(words, index) : program === 'eval' ? rest.slice(1).join(' ') : undefined
    if (script !== undefined) {
      if (depth < maxDepth) for (const command of readShell(script, true).commands) fromWords(shellWords(command), depth + 1, out)
      return
    }
    const wrapper = wrappers.get(program)
    if (wrapper === undefined) return
    index = afterWrapper(words, index, wrapper)
  }
}

/**
 * A simple command without what precedes the program: grouping characters, shell keywords and
 * variable assignments (`FOO=1 rm -rf x` → `rm -rf x`), as written.
 */
export function programPart(command: string): string {
  const words = command.replace(/^[({!\s]+/, '').split(' ')
  let start = 0
  while (start < words.length && (keywords.has(words[start] ?? '') || /^[A-Za-z_]\w*=\S*$/.test(words[start] ?? ''))) start += 1
  return words.slice(start).join(' ')
}

/** Every text a deny rule is tried on for `command` (one simple command, whitespace collapsed). */
export function denyCandidates(command: string): string[] {
  const out = [command, programPart(command)]
  fromWords(shellWords(command), 0, out)
  return [...new Set(out)]
}
