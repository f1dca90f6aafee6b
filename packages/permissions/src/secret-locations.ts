/**
 * The places that hold the user's credentials and dsh's private state: key stores under the home
 * directory (ssh, cloud and registry credentials, browser profiles) and the session transcripts
 * and input history under `$DSH_HOME`. One list for every layer that keeps them from the model:
 * the shell sandbox masks each one (an empty tmpfs over a directory, `/dev/null` over a file), and
 * the `read`, `grep` and `glob` tools refuse them unless a `read(...)` allow rule names them.
 */
import { join } from 'node:path'

/** One secret location. */
export interface SecretLocation {
  /** Absolute path (it may not exist). */
  readonly path: string
  /** What normally stands there: a directory is masked by an empty tmpfs, a file by `/dev/null`. */
  readonly kind: 'directory' | 'file'
  /** A few words on what it holds, for messages. */
  readonly holds: string
}

const homeDirectories: readonly (readonly [string, string])[] = [
  ['.ssh', 'ssh keys'],
  ['.aws', 'AWS credentials'],
  ['.gnupg', 'GnuPG keys'],
  ['.config/gh', 'GitHub CLI tokens'],
  ['.config/gcloud', 'Google Cloud credentials'],
  ['.azure', 'Azure credentials'],
  ['.kube', 'Kubernetes credentials'],
  ['.mozilla', 'a browser profile'],
  ['.config/google-chrome', 'a browser profile'],
  ['.config/chromium', 'a browser profile'],
]

const homeFiles: readonly (readonly [string, string])[] = [
  ['.netrc', 'login passwords'],
  ['.git-credentials', 'git passwords'],
  ['.docker/config.json', 'registry credentials'],
  ['.pypirc', 'package registry tokens'],
]

/** The secret locations for a user whose home is `home` and whose dsh home is `dshHome`. */
export function secretLocations(home: string, dshHome: string): SecretLocation[] {
  return [
    ...homeDirectories.map(([path, holds]) => ({ path: join(home, path), kind: 'directory' as const, holds })),
    ...homeFiles.map(([path, holds]) => ({ path: join(home, path), kind: 'file' as const, holds })),
    { path: join(dshHome, 'sessions'), kind: 'directory', holds: 'dsh session transcripts' },
    { path: join(dshHome, 'history'), kind: 'directory', holds: 'dsh input history' },
  ]
}
