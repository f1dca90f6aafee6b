/**
 * The environment shell commands and snippets get: the tool's environment without the model
 * provider's secrets. Removed: the configured `model.apiKeyEnv`, every variable whose name ends in
 * `_API_KEY` (`DEEPSEEK_API_KEY`, `OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, …) and the other well-known
 * provider credentials listed below.
 */

/** Provider credentials that do not end in `_API_KEY`. */
const named = new Set(['OPENAI_ORG_ID', 'OPENAI_PROJECT_ID', 'AZURE_OPENAI_AD_TOKEN', 'GOOGLE_APPLICATION_CREDENTIALS', 'HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN'])

/** True for a variable the sandboxed process must not see. */
export function isSecretVariable(name: string, extra: readonly string[]): boolean {
  return name.endsWith('_API_KEY') || named.has(name) || extra.includes(name)
}

/** A copy of `env` without the secrets; `extra` names more variables to drop (the configured key). */
export function filterEnvironment(env: Readonly<Record<string, string | undefined>>, extra: readonly string[]): Record<string, string | undefined> {
  const kept: Record<string, string | undefined> = {}
  for (const [name, value] of Object.entries(env)) if (!isSecretVariable(name, extra)) kept[name] = value
  return kept
}
