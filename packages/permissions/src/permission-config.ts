/**
 * The `permissions:` and `sandbox:` sections of the config file and the `permissions` namespace of
 * `$DSH_HOME/settings.yaml` (zod schemas whose errors name the key), and how the layers merge:
 * allow and deny rules are the union of the config file, settings.yaml and the command line (deny
 * wins over allow wherever a rule comes from); the mode is the command line's, else the config
 * file's, else the front end's default.
 */
import { z } from 'zod'
import type { PermissionMode, PermissionRule } from '@dsh/contracts'
import { parseRule, RuleSyntaxError } from './rule-parse.ts'

const ruleText = z.string().superRefine((text, context) => {
  try {
    parseRule(text, 'rule')
  } catch (error) {
    // The schema reports the problem (with its key path) instead of throwing.
    if (!(error instanceof RuleSyntaxError)) throw error
    context.addIssue({ code: 'custom', message: error.message.replace(/^rule: /, '') })
  }
})

const modeSchema = z.enum(['read-only', 'ask', 'auto-edit', 'full-auto', 'danger-full-access'] satisfies readonly PermissionMode[])

/** `permissions:` of the config file. */
export const permissionsSectionSchema = z.strictObject({
  mode: modeSchema.optional().describe('Permission mode (read-only, ask, auto-edit, full-auto, danger-full-access); default: the front end\'s'),
  allow: z.array(ruleText).optional().describe('Rules that allow calls without asking, e.g. bash(npm test*)'),
  deny: z.array(ruleText).optional().describe('Rules that deny calls; deny wins over allow'),
})

/** `sandbox:` of the config file. */
export const sandboxSectionSchema = z.strictObject({
  network: z.boolean().optional().describe('Network inside the shell sandbox (default true)'),
  writable: z
    .array(z.string().refine((path) => path.startsWith('/'), { message: 'expected an absolute path' }))
    .optional()
    .describe('More directories shell commands may write (absolute; caches such as /home/me/.npm), in every mode but read-only'),
  passEnv: z.array(z.string().min(1)).optional().describe('Environment variables shell commands get although they look like credentials or session sockets (GITHUB_TOKEN, SSH_AUTH_SOCK, …)'),
})

/**
 * The `permissions` namespace of settings.yaml (rules only; the mode is per run). Rules are
 * checked one by one by {@link usableRules}, not here: a bad rule must not make the settings
 * store fall back to base values for the whole namespace, which would drop every deny rule of
 * the file with it.
 */
export const permissionSettingsSchema = z.strictObject({
  allow: z.array(z.string()).default([]).describe('Rules that allow calls without asking'),
  deny: z.array(z.string()).default([]).describe('Rules that deny calls; deny wins over allow'),
})

/**
 * The rules of a layer that parse; each one that does not is handed to `report` as one line
 * (`WHERE.deny[1]: invalid permission rule …; this rule is ignored, the other rules apply`).
 */
export function usableRules(texts: RuleTexts, where: string, report: (line: string) => void): RuleTexts {
  const keep = (list: readonly string[] | undefined, key: string): string[] =>
    (list ?? []).filter((text, index) => {
      try {
        parseRule(text, `${where}.${key}[${index}]`)
        return true
      } catch (error) {
        // A bad rule is the person's input: said, then left out (the other rules still apply).
        if (!(error instanceof RuleSyntaxError)) throw error
        report(`${error.message}; this rule is ignored, the other rules apply`)
        return false
      }
    })
  return { allow: keep(texts.allow, 'allow'), deny: keep(texts.deny, 'deny') }
}

/** Rules as written in one layer. */
export interface RuleTexts {
  readonly allow?: readonly string[] | undefined
  readonly deny?: readonly string[] | undefined
}

function union(texts: readonly string[]): PermissionRule[] {
  const rules = texts.map((text) => parseRule(text, 'rule'))
  return rules.filter((rule, index) => rules.findIndex((other) => other.text === rule.text) === index)
}

/** The union of the layers' rules, parsed (each layer was validated already), without duplicates. */
export function mergeRules(layers: readonly RuleTexts[]): { allow: PermissionRule[]; deny: PermissionRule[] } {
  return { allow: union(layers.flatMap((layer) => layer.allow ?? [])), deny: union(layers.flatMap((layer) => layer.deny ?? [])) }
}

/** The mode in force. */
export function resolveMode(layers: { readonly cli?: PermissionMode | undefined; readonly config?: PermissionMode | undefined; readonly frontEnd: PermissionMode }): PermissionMode {
  return layers.cli ?? layers.config ?? layers.frontEnd
}
