/**
 * The environment of a stdio server: a few variables every program expects (PATH, HOME, USER,
 * LOGNAME, SHELL, LANG, LC_ALL, TERM, TMPDIR), and the network's proxy settings (HTTP_PROXY,
 * HTTPS_PROXY, NO_PROXY and their lowercase forms, NODE_EXTRA_CA_CERTS for a proxy that inspects
 * TLS), so a server behind the same proxy as dsh reaches the network as dsh does, taken from dsh's
 * own environment, then what the server's configuration lists. Nothing else is inherited, so model provider keys
 * (`*_API_KEY`), tokens, secrets and cloud credentials never reach a server unless its
 * configuration names them. The process marker lets dsh find and end the server's processes.
 */

/** The variables passed through from dsh's environment. */
export const INHERITED_VARIABLES: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LC_ALL',
  'TERM',
  'TMPDIR',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
]

/** The environment of one server process. */
export function serverEnvironment(inherited: Readonly<Record<string, string | undefined>>, configured: Readonly<Record<string, string>>, marker: { readonly name: string; readonly value: string }): Record<string, string> {
  const env: Record<string, string> = {}
  for (const name of INHERITED_VARIABLES) {
    const value = inherited[name]
    if (value !== undefined) env[name] = value
  }
  return { ...env, ...configured, [marker.name]: marker.value }
}
