/**
 * The rg command lines of the search tools. Shared flags: no user config, hidden files included,
 * `.git` never, links not followed (rg's default without `-L`), ignore files honoured (rg's
 * default: `.gitignore` inside a git repository, nested, with negations; `.git/info/exclude`; the
 * global excludes file; `.ignore` and `.rgignore`), `--engine auto` (PCRE2 only when the pattern
 * needs it, e.g. lookaround or backreferences) and `--crlf` (so `$` matches before `\r\n`).
 */
import { isAbsolute, relative } from 'node:path'

/** How the search root is passed to rg and how rg's output paths map back to it. */
export interface RipgrepRoot {
  /** The argument naming the root (relative to the working directory when inside it). */
  readonly arg: string
  /** Prefix rg puts before paths under a directory root (`''` for the working directory itself). */
  readonly prefix: string
}

/** The root argument for absolute `root` searched from `cwd`. */
export function ripgrepRoot(cwd: string, root: string): RipgrepRoot {
  const rel = relative(cwd, root)
  if (rel === '') return { arg: '.', prefix: '' }
  if (rel === '..' || rel.startsWith('../') || isAbsolute(rel)) return { arg: root, prefix: root.endsWith('/') ? root : `${root}/` }
  return { arg: rel, prefix: `${rel}/` }
}

/** rg prints `./x` for the root `.`; the model sees `x`. */
export function displayPath(printed: string): string {
  return printed.startsWith('./') ? printed.slice(2) : printed
}

const COMMON = ['--no-config', '--hidden', '--glob', '!.git', '--color', 'never', '--no-follow']

/** Pattern flags of a content search. */
export interface PatternFlags {
  readonly pattern: string
  readonly caseInsensitive: boolean
  readonly multiline: boolean
}

function patternArgs(flags: PatternFlags): string[] {
  return [
    '--engine',
    'auto',
    '--crlf',
    ...(flags.caseInsensitive ? ['--ignore-case'] : []),
    ...(flags.multiline ? ['--multiline', '--multiline-dotall'] : []),
    '--regexp',
    flags.pattern,
  ]
}

/** Per-file match counts: `path\0count` lines. */
export function countArgs(flags: PatternFlags, paths: readonly string[]): string[] {
  return [...COMMON, '--count', '--with-filename', '--null', ...patternArgs(flags), '--', ...paths]
}

/** Matches as JSON lines, of explicitly named files. */
export function jsonArgs(flags: PatternFlags, paths: readonly string[]): string[] {
  return [...COMMON, '--json', ...patternArgs(flags), '--', ...paths]
}

/** The file listing, newest modification time first (rg stats the files itself). */
export function filesArgs(paths: readonly string[], nameSuffix?: string): string[] {
  // A file type, unlike `--glob`, never brings an ignored file back: rg applies it after the
  // ignore rules, so it only narrows what rg prints (the caller still applies the model's glob).
  const narrowed = nameSuffix === undefined ? [] : ['--type-add', `dshglob:*${nameSuffix}`, '--type', 'dshglob']
  return [...COMMON, '--files', '--null', ...narrowed, '--', ...paths]
}
