/**
 * The namespace naming rule: kebab-case (`maintainer-doc-guard`), so a namespace reads the same as
 * the plugin id it belongs to and is a plain YAML key.
 */
import { SettingsError } from './errors.ts'

const KEBAB_CASE = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/

/** Throws `SETTINGS_INVALID_NAMESPACE` unless `namespace` is kebab-case. */
export function assertNamespaceName(namespace: string): void {
  if (typeof namespace === 'string' && KEBAB_CASE.test(namespace)) return
  throw new SettingsError(
    'SETTINGS_INVALID_NAMESPACE',
    `invalid settings namespace ${JSON.stringify(namespace)}: use kebab-case, e.g. "maintainer-doc-guard"`,
  )
}
