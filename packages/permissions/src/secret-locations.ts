/**
 * The places that hold the user's credentials and dsh's private state: key stores, credential
 * helpers and registry tokens under the home directory, browser profiles, and the session
 * transcripts, input history and checkpoints under `$DSH_HOME`. The one list for every layer that
 * keeps them from the model (issue 19, item 7): the shell sandbox masks each one that exists (an
 * empty tmpfs over a directory, `/dev/null` over anything else: sandbox-masks.ts), and the `read`,
 * `grep` and `glob` tools refuse a path inside one unless a `read(...)` allow rule names it (the
 * guard's `secretPaths`, {@link secretReadPaths}), and listings leave them out. Paths are absolute,
 * not canonical (the policy compares canonical forms too).
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

type Entry = readonly [path: string, kind: SecretLocation['kind'], holds: string]

/** Below the home: keys, tokens, credential helpers, password stores. */
const credentials: readonly Entry[] = [
  ['.ssh', 'directory', 'ssh keys'],
  ['.aws', 'directory', 'AWS credentials'],
  ['.gnupg', 'directory', 'GnuPG keys'],
  ['.netrc', 'file', 'login passwords'],
  ['.git-credentials', 'file', 'git passwords'],
  ['.config/gh', 'directory', 'GitHub CLI tokens'],
  ['.config/hub', 'file', 'GitHub tokens'],
  ['.config/git/credentials', 'file', 'git passwords'],
  ['.docker/config.json', 'file', 'registry credentials'],
  ['.kube', 'directory', 'Kubernetes credentials'],
  ['.config/gcloud', 'directory', 'Google Cloud credentials'],
  ['.azure', 'directory', 'Azure credentials'],
  ['.npmrc', 'file', 'npm registry tokens'],
  ['.yarnrc', 'file', 'yarn registry tokens'],
  ['.pypirc', 'file', 'package registry tokens'],
  ['.cargo/credentials', 'file', 'crates.io tokens'],
  ['.cargo/credentials.toml', 'file', 'crates.io tokens'],
  ['.gem/credentials', 'file', 'RubyGems tokens'],
  ['.terraform.d/credentials.tfrc.json', 'file', 'Terraform tokens'],
  ['.password-store', 'directory', 'a password store'],
  ['.local/share/keyrings', 'directory', 'the desktop keyring'],
  ['.vault-token', 'file', 'a Vault token'],
]

/** Below the home: browser profiles (cookies, saved passwords, session tokens). */
const browserProfiles: readonly string[] = [
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.config/vivaldi',
  '.config/opera',
  'snap/firefox',
  'snap/chromium',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Firefox',
  'Library/Application Support/BraveSoftware',
  'Library/Safari',
  'Library/Cookies',
  'Library/Keychains',
]

/** Below `$DSH_HOME`: every session's transcript, prompt history and checkpoints. */
const dshState: readonly Entry[] = [
  ['sessions', 'directory', 'dsh session transcripts'],
  ['history', 'directory', 'dsh input history'],
  ['checkpoints', 'directory', 'dsh checkpoints'],
]

/** The secret locations for a user whose home is `home` and whose dsh home is `dshHome`. */
export function secretLocations(home: string, dshHome: string): SecretLocation[] {
  const at = (base: string) => ([path, kind, holds]: Entry): SecretLocation => ({ path: join(base, path), kind, holds })
  return [...credentials.map(at(home)), ...browserProfiles.map((path) => at(home)([path, 'directory', 'a browser profile'])), ...dshState.map(at(dshHome))]
}

/** Inputs of {@link secretReadPaths}. */
export interface SecretPathOptions {
  /** The user's home directory (absolute). */
  readonly home: string
  /** `$DSH_HOME` (absolute). */
  readonly dshHome: string
}

/** The same locations as absolute paths, for the read tools' refusals (guard option `secretPaths`). */
export function secretReadPaths(options: SecretPathOptions): string[] {
  return secretLocations(options.home, options.dshHome).map((location) => location.path)
}
