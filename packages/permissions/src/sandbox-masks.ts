/**
 * What the sandbox hides, computed per launch from the environment and the filesystem as they are
 * (`sandboxMasks`): the runtime directories of the desktop session and the terminal multiplexer
 * (`$XDG_RUNTIME_DIR`, `/run/user/UID`, `tmux-UID`, `/tmp/.X11-unix`, the directories of the
 * ssh-agent, tmux and session-bus sockets, and each socket itself) and the secret locations
 * (secret-locations.ts). Only what exists is masked, and never a directory that holds the working
 * directory or a writable root (a socket there is masked alone).
 * What stays read-only inside the roots is protected-inside-roots.ts.
 */
import { lstatSync } from 'node:fs'
import { dirname, join, relative, isAbsolute } from 'node:path'
import { secretLocations } from './secret-locations.ts'

/** One thing to hide. */
export interface Mask {
  readonly path: string
  readonly kind: 'directory' | 'file'
}

/** Inputs of {@link sandboxMasks}. */
export interface MaskInputs {
  /** dsh's environment (where the sockets are announced). */
  readonly env: Readonly<Record<string, string | undefined>>
  readonly home: string
  readonly dshHome: string
  readonly uid: number
  readonly tempDir: string
  /** The working directory and the writable roots: never hidden. */
  readonly keep: readonly string[]
}

const inside = (path: string, dir: string): boolean => {
  const rel = relative(dir, path)
  return rel === '' || (rel !== '..' && !rel.startsWith('../') && !isAbsolute(rel))
}

function kindOf(path: string): Mask['kind'] | undefined {
  try {
    return lstatSync(path).isDirectory() ? 'directory' : 'file'
  } catch {
    // Missing or unreadable: nothing to mask there (bubblewrap cannot mount over a missing path).
    return undefined
  }
}

/** The socket named by `unix:path=…` in a D-Bus address, if any. */
function busSocket(address: string | undefined): string | undefined {
  const path = /(?:^|[;,:])path=([^,;]+)/.exec(address ?? '')?.[1]
  return path !== undefined && isAbsolute(path) ? path : undefined
}

/** The sockets announced in the environment. */
function sockets(env: MaskInputs['env']): string[] {
  const found = [env['SSH_AUTH_SOCK'], env['TMUX']?.split(',')[0], busSocket(env['DBUS_SESSION_BUS_ADDRESS'])]
  return found.filter((path): path is string => path !== undefined && isAbsolute(path))
}

/** Everything to hide for one launch, existing paths only. */
export function sandboxMasks(inputs: MaskInputs): Mask[] {
  const { env, uid } = inputs
  const tmuxBase = env['TMUX_TMPDIR'] !== undefined && isAbsolute(env['TMUX_TMPDIR']) ? env['TMUX_TMPDIR'] : '/tmp'
  const runtimeDirs = [env['XDG_RUNTIME_DIR'], `/run/user/${uid}`, join(tmuxBase, `tmux-${uid}`), `/tmp/tmux-${uid}`, join(inputs.tempDir, `tmux-${uid}`), '/tmp/.X11-unix', '/tmp/.ICE-unix']
  const socketFiles = sockets(env)
  const candidates: Mask[] = [
    ...runtimeDirs.filter((dir): dir is string => dir !== undefined && isAbsolute(dir)).map((path) => ({ path, kind: 'directory' as const })),
    ...socketFiles.map((path) => ({ path: dirname(path), kind: 'directory' as const })),
    ...socketFiles.map((path) => ({ path, kind: 'file' as const })),
    ...secretLocations(inputs.home, inputs.dshHome).map(({ path, kind }) => ({ path, kind })),
  ]
  const masks: Mask[] = []
  const seen = new Set<string>()
  for (const candidate of candidates) {
    if (seen.has(candidate.path)) continue
    seen.add(candidate.path)
    const actual = kindOf(candidate.path)
    if (actual === undefined) continue
    if (inputs.keep.some((kept) => inside(kept, candidate.path))) continue
    // A file mask under a directory already masked is both needless and impossible (the tmpfs is empty).
    if (masks.some((mask) => mask.kind === 'directory' && inside(candidate.path, mask.path))) continue
    masks.push({ path: candidate.path, kind: actual })
  }
  return masks
}
