// Runs the built dsh as a user file permissions bind. As root (CI runs as root) that is `nobody`,
// and `nobody` gets its own copy of the bundle, run by node, in the test tree: the clone may lie
// under a folder only root may enter (`mktemp -d` makes 0700 ones), so node_modules/.bin/dsh of the
// clone cannot be assumed reachable. As any other user the tests run dsh as themselves.
import { execFileSync } from 'node:child_process'
import { chmodSync, chownSync, cpSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runDsh, spawnCollect, testEnv, type DshResult } from './run-dsh.ts'

const built = fileURLToPath(new URL('../dist', import.meta.url))
const nobody = { uid: 65534, gid: 65534 }

/** Options of one run (as {@link runDsh}). */
export interface UnprivilegedRunOptions {
  readonly cwd: string
  readonly env?: Record<string, string>
}

/** A way to run dsh as an unprivileged user, or why none exists here. */
export type UnprivilegedDsh =
  | { readonly run: (args: readonly string[], options: UnprivilegedRunOptions) => Promise<DshResult>; readonly skip?: undefined }
  | { readonly skip: string }

/**
 * Prepares `root` (a fresh test tree) and `home` (created inside it, owned by the user that runs
 * dsh) for runs as an unprivileged user. Gives `skip` only where no unprivileged user can run
 * node here (for instance node installed under a folder only root may enter).
 */
export function unprivilegedDsh(root: string, home: string): UnprivilegedDsh {
  mkdirSync(home)
  if (process.getuid?.() !== 0) return { run: (args, options) => runDsh(args, options) }
  chmodSync(root, 0o755)
  chownSync(home, nobody.uid, nobody.gid)
  const bundle = join(root, 'dsh-bundle')
  cpSync(built, bundle, { recursive: true, filter: (source) => !source.endsWith('.map') })
  chmodSync(bundle, 0o755)
  try {
    execFileSync(process.execPath, [join(bundle, 'dsh.mjs'), '--version'], { cwd: root, env: testEnv(root), ...nobody, stdio: 'pipe' })
  } catch (error) {
    // Swallowed into a stated skip: uid 65534 cannot run node on a copy in the temp folder, so node
    // or the temp folder is out of its reach and no unprivileged user can run dsh here.
    const stderr = error instanceof Error && 'stderr' in error && Buffer.isBuffer(error.stderr) ? error.stderr.toString().trim() : String(error)
    return { skip: `no unprivileged user can run ${process.execPath} on a copy of dsh in ${root} (uid 65534: ${stderr})` }
  }
  return {
    run: (args, options) => spawnCollect(process.execPath, [join(bundle, 'dsh.mjs'), ...args], { cwd: options.cwd, env: testEnv(options.cwd, { NO_COLOR: '1', ...options.env }), user: nobody }),
  }
}
