/**
 * The permission options every agent command takes (`--permission-mode MODE`, `--allow RULE`…,
 * `--deny RULE`…), checked before anything is created: a bad mode or rule is a usage error that
 * names the option and the value. Each front end states its default mode here, in one line, when
 * it builds its {@link ComposePermissions}.
 */
import type { PermissionMode } from '@dsh/contracts'
import { isPermissionMode, parseRule, permissionModes, RuleSyntaxError } from '@dsh/permissions'
import { usageError } from './cli-error.ts'

/** The command-line values. */
export interface PermissionFlags {
  readonly permissionMode?: string
  readonly allow?: readonly string[]
  readonly deny?: readonly string[]
}

/** What `composeHost` needs to install the permission policy. */
export interface ComposePermissions {
  /** The front end's default mode: `full-auto` for `dsh run`, `ask` for chat, ACP and web. */
  readonly defaultMode: PermissionMode
  /** `--permission-mode` (wins over the config file's `permissions.mode`). */
  readonly mode?: PermissionMode | undefined
  /** `--allow` rules (joined with the config file's and settings.yaml's). */
  readonly allow?: readonly string[] | undefined
  /** `--deny` rules (joined likewise; deny wins). */
  readonly deny?: readonly string[] | undefined
}

function checkRules(option: string, rules: readonly string[] | undefined): readonly string[] | undefined {
  for (const rule of rules ?? []) {
    try {
      parseRule(rule, option)
    } catch (error) {
      // A bad rule is the person's input: a usage error naming the option.
      if (error instanceof RuleSyntaxError) throw usageError(error.message)
      throw error
    }
  }
  return rules
}

/** Validates the flags and adds the front end's default. */
export function permissionsFrom(flags: PermissionFlags, defaultMode: PermissionMode): ComposePermissions {
  const mode = flags.permissionMode
  if (mode !== undefined && !isPermissionMode(mode)) throw usageError(`--permission-mode ${mode}: unknown mode (expected one of ${permissionModes.join(', ')})`)
  return { defaultMode, mode, allow: checkRules('--allow', flags.allow), deny: checkRules('--deny', flags.deny) }
}
