/**
 * The environment shell commands and snippets get: the tool's environment without credentials and
 * without the addresses of services outside the sandbox. Removed: the configured `model.apiKeyEnv`;
 * every variable whose name ends in `_API_KEY` or contains `TOKEN`, `SECRET`, `PASSWORD`, `PASSWD`
 * or `CREDENTIAL` (any case); every `AWS_*`, `GH_*`, `GITHUB_*`, `AZURE_*` and `NPM_*AUTH*`
 * variable; the well-known provider credentials listed below; and the sockets of the desktop
 * session (`SSH_AUTH_SOCK`, `TMUX`, `DBUS_SESSION_BUS_ADDRESS`, `DISPLAY`, …), which the sandbox
 * masks anyway. `sandbox.passEnv` names variables to keep all the same.
 */

/** Provider credentials and service addresses that the patterns do not catch. */
const named = new Set([
  'OPENAI_ORG_ID',
  'OPENAI_PROJECT_ID',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'SSH_AUTH_SOCK',
  'SSH_AGENT_PID',
  'GPG_AGENT_INFO',
  'TMUX',
  'TMUX_PANE',
  'STY',
  'DBUS_SESSION_BUS_ADDRESS',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'XAUTHORITY',
  'KUBECONFIG',
])

const patterns: readonly RegExp[] = [/_API_KEY$/i, /TOKEN/i, /SECRET/i, /PASSWORD/i, /PASSWD/i, /CREDENTIAL/i, /^AWS_/i, /^GH_/i, /^GITHUB_/i, /^AZURE_/i, /^NPM_.*AUTH/i]

/** True for a variable the sandboxed process must not see; `extra` names more (the configured key). */
export function isSecretVariable(name: string, extra: readonly string[]): boolean {
  return named.has(name) || extra.includes(name) || patterns.some((pattern) => pattern.test(name))
}

/** What to drop and what to keep all the same. */
export interface EnvFilterOptions {
  /** More variables to drop (the configured `model.apiKeyEnv`). */
  readonly drop: readonly string[]
  /** Variables to keep even when they look secret (`sandbox.passEnv`); never the configured key. */
  readonly pass?: readonly string[]
}

/** A copy of `env` without the secrets. */
export function filterEnvironment(env: Readonly<Record<string, string | undefined>>, options: EnvFilterOptions): Record<string, string | undefined> {
  const { drop, pass = [] } = options
  const kept: Record<string, string | undefined> = {}
  for (const [name, value] of Object.entries(env)) {
    const passed = pass.includes(name) && !drop.includes(name)
    if (passed || !isSecretVariable(name, drop)) kept[name] = value
  }
  return kept
}
