/**
 * The environment of a hook command: dsh's own, without the model provider's keys (a hook is
 * outside the model's sandbox, but it has no business with the model's credentials), plus
 * `CLAUDE_PROJECT_DIR` and `DSH_PROJECT_DIR` naming the session's working directory, which Claude
 * Code hook files use to find their scripts.
 */

/** Variables that always hold provider keys. */
export const PROVIDER_KEY_VARIABLES = ['DEEPSEEK_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY'] as const

/** The environment for hooks run in `cwd`; `secretNames` are removed too (`model.apiKeyEnv`). */
export function hookEnvironment(env: Readonly<Record<string, string | undefined>>, secretNames: readonly string[], cwd: string): Record<string, string> {
  const removed = new Set<string>([...PROVIDER_KEY_VARIABLES, ...secretNames])
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) if (value !== undefined && !removed.has(name)) out[name] = value
  return { ...out, CLAUDE_PROJECT_DIR: cwd, DSH_PROJECT_DIR: cwd }
}
