/**
 * Whether a directory is a dangerous thing to make writable: a system directory, the user's home
 * (or a directory containing it), or dsh's own state directory (whose settings decide what the agent
 * may do). Such a root is still accepted — the person decides — but every surface that adds one
 * (`dsh roots add`, the web page's Folders dialog) says why it is risky.
 */
import { realpathSync } from 'node:fs'
import { resolve, sep } from 'node:path'

/** Where the person's own directories are. */
export interface RiskyRootContext {
  /** The user's home directory. */
  readonly home: string
  /** `$DSH_HOME`. */
  readonly dshHome: string
}

/** Top-level directories of the system: the directory itself or anything below it is risky. */
const systemTrees = ['/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/boot', '/proc', '/sys', '/dev', '/run', '/var', '/root', '/opt', '/srv', '/snap']

function canonical(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    // A path that cannot be resolved (missing, unreadable) is judged as written.
    return resolve(path)
  }
}

const inside = (path: string, dir: string): boolean => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep)

/** Why `path` is risky as a writable root, or undefined. */
export function riskyRootReason(path: string, context: RiskyRootContext): string | undefined {
  const target = canonical(path)
  const home = canonical(context.home)
  const dshHome = canonical(context.dshHome)
  if (target === sep) return 'the root of the filesystem'
  if (target === home) return 'your home directory: every project, key and setting in it would be writable'
  if (inside(home, target)) return 'a directory that contains your home directory'
  if (inside(target, dshHome) || inside(dshHome, target)) return "dsh's own state directory ($DSH_HOME) or contains it: a command could rewrite the settings that decide what the agent may do"
  const system = systemTrees.find((dir) => inside(target, dir) && !inside(home, dir) && !inside(target, home))
  if (system !== undefined) return `a system directory (under ${system})`
  return undefined
}

/** The `warning:` line for a risky root, or undefined. */
export function riskyRootWarning(path: string, context: RiskyRootContext): string | undefined {
  const reason = riskyRootReason(path, context)
  return reason === undefined ? undefined : `warning: ${path} is ${reason}; shell commands of every session in this project may write there`
}
