/**
 * Contracts of the skills package (types only): where a skill was found, what its front matter
 * said, its state after precedence and trust, and custom commands.
 */

/** Where a skill folder lies; decides precedence and trust. */
export type SkillScope =
  /** A directory of the chain from the project root to the cwd. */
  | 'project'
  /** A directory below the cwd that joined when the agent touched something in it. */
  | 'nested'
  /** The top level of an additional workspace root. */
  | 'additional-root'
  /** `$DSH_HOME/skills`, `~/.agents/skills` or `~/.claude/skills`. */
  | 'user'

/** The skill folder kinds, in precedence order within one directory. */
export type SkillFamily = '.dsh' | '.agents' | '.claude'

/** One directory that may hold skill folders (`<base>/<family>/skills`). */
export interface SkillSource {
  /** Absolute `…/skills` directory holding `<name>/SKILL.md` folders. */
  readonly dir: string
  readonly scope: SkillScope
  readonly family: SkillFamily | 'user'
  /** Project-root-relative key of the directory the family folder sits in (`.` for the root); `undefined` outside the project. */
  readonly rel: string | undefined
}

/** The front matter fields dsh acts on; every other field is kept in `extra`. */
export interface SkillMeta {
  readonly name: string
  readonly description: string
  readonly whenToUse?: string
  readonly argumentHint?: string
  /** `disable-model-invocation: true`: only a person may invoke it (`/name`). */
  readonly disableModelInvocation: boolean
  /** `user-invocable: false`: not offered as `/name`. */
  readonly userInvocable: boolean
  /** `allowed-tools` as written (a list or a comma/space separated string). */
  readonly allowedTools: readonly string[]
  /** Every front matter field as parsed (unknown ones included, never interpreted). */
  readonly extra: Readonly<Record<string, unknown>>
  /** Text fields whose unquoted `: ` strict YAML refused, read as plain text (colon-values.ts); absent when none. */
  readonly quotedFields?: readonly string[]
}

/** A skill file that parsed. */
export interface LoadedSkill {
  readonly kind: 'skill'
  readonly meta: SkillMeta
  /** Body of SKILL.md without the front matter. */
  readonly body: string
  /** Absolute skill folder. */
  readonly folder: string
  /** Absolute SKILL.md path as found (before links). */
  readonly file: string
  /** SHA-256 hex of the whole SKILL.md. */
  readonly digest: string
  readonly source: SkillSource
}

/** A skill file that could not be used: one warning line names its path and the problem. */
export interface BrokenSkill {
  readonly kind: 'broken'
  /** Absolute SKILL.md path. */
  readonly file: string
  readonly folder: string
  /** What is wrong, in a few words (`bad YAML: …`, `missing description`, …). */
  readonly problem: string
  readonly source: SkillSource
}

/** State of a skill after precedence and trust (`dsh skills list`). */
export type SkillState = 'active' | 'shadowed' | 'broken' | 'untrusted'

/** A skill as listed: what it is called, its state, and what it shadows or is shadowed by. */
export interface SkillEntry {
  /** The name it is invoked by (`pkg/web:deploy` for a clashing nested skill). */
  readonly key: string
  readonly state: SkillState
  readonly skill: LoadedSkill | BrokenSkill
  /** For a shadowed skill: the SKILL.md path that wins. */
  readonly shadowedBy?: string
}

/** Everything discovery found for one session or working directory. */
export interface SkillSet {
  /** Active and untrusted skills by key, in precedence order (untrusted ones still load; their allowed-tools grant nothing). */
  readonly skills: ReadonlyMap<string, LoadedSkill>
  /** Every entry, for listings. */
  readonly entries: readonly SkillEntry[]
  /** The project root the paths are shown relative to. */
  readonly projectRoot: string
  /** One line per broken file. */
  readonly problems: readonly string[]
  /** Canonical roots a SKILL.md link may lead into (the same policy at the `skill` call). */
  readonly linkRoots: readonly string[]
}

/** A custom command file (`.dsh/commands/<group>/<name>.md`). */
export interface CommandFile {
  /** `/name` without the slash (`group:name` for subfolders). */
  readonly name: string
  /** Absolute file. */
  readonly file: string
  readonly body: string
  readonly description?: string
  readonly argumentHint?: string
  /** `bundled`: shipped with dsh (bundled-commands.ts), after every file. */
  readonly scope: 'project' | 'user' | 'bundled'
  /** For a command shadowed by another file or a built-in: what wins. */
  readonly shadowedBy?: string
}
