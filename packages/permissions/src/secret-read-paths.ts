/**
 * Where credentials and other people's conversations live: the locations the `read`, `grep` and
 * `glob` tools refuse unless a `read(...)` allow rule names them (issue 19, item 7). A function of
 * the home directory and `$DSH_HOME`, so tests and the sandbox can share one list. Paths are
 * absolute, not canonical (the policy compares canonical forms).
 */
import { join } from 'node:path'

/** Inputs of {@link secretReadPaths}. */
export interface SecretPathOptions {
  /** The user's home directory (absolute). */
  readonly home: string
  /** `$DSH_HOME` (absolute). */
  readonly dshHome: string
}

/** Below the home: keys, tokens, credential helpers, password stores. */
const credentialDirs = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.netrc',
  '.git-credentials',
  '.config/gh',
  '.config/hub',
  '.config/git/credentials',
  '.docker/config.json',
  '.kube',
  '.config/gcloud',
  '.azure',
  '.npmrc',
  '.yarnrc',
  '.pypirc',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.terraform.d/credentials.tfrc.json',
  '.password-store',
  '.local/share/keyrings',
  '.vault-token',
]

/** Below the home: browser profiles (cookies, saved passwords, session tokens). */
const browserProfiles = [
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
const dshState = ['sessions', 'history', 'checkpoints']

/** The secret locations, absolute. */
export function secretReadPaths(options: SecretPathOptions): string[] {
  return [...credentialDirs.map((path) => join(options.home, path)), ...browserProfiles.map((path) => join(options.home, path)), ...dshState.map((path) => join(options.dshHome, path))]
}
