/**
 * The bubblewrap command line of one sandboxed launch:
 * - the whole filesystem read-only, a fresh `/dev`, no capabilities (`--cap-drop ALL`: bubblewrap
 *   started by root keeps them otherwise, and with them a command remounts `/` writable);
 * - its own pid and IPC namespaces (`--unshare-pid --unshare-ipc`) with a fresh `/proc` of that
 *   namespace: a command sees and signals only its own processes, not dsh (no `SIGUSR1` to open
 *   Node's inspector), not other commands, not bubblewrap's monitor, and `/proc/$PPID/root` is
 *   bubblewrap's init inside the sandbox, not the host's filesystem. bubblewrap's init (pid 1,
 *   not `--as-pid-1`) reaps orphans; when it ends, the kernel ends everything in the namespace;
 * - the writable roots bound writable (in `read-only` sandboxes none, and the temp directory is a
 *   private empty tmpfs instead), the session's private temp directory bound over the temp
 *   directory, and then, read-only over them: dsh's own state and config file, and the files
 *   that tools run without asking (`.git/config`, `.git/hooks`, `.dsh*`, `.vscode/`, …, in
 *   nested repositories too: protected-inside-roots.ts);
 * - masks last: empty tmpfs over runtime and secret directories, `/dev/null` over secret files and
 *   sockets (see sandbox-masks.ts);
 * - the network namespace unshared when the network is off;
 * - `--die-with-parent` unless the launch keeps background processes past the call: then they
 *   live in the namespace until dsh's process tracking ends its init (the marker and the process
 *   group of the call are on it), which ends the whole namespace, or, when dsh dies without that,
 *   until the reaper does (the owner id in the arguments, sandbox-reaper.ts);
 * - inside, a `bash` prelude closes every descriptor but 0–2 (and Node's IPC channel) before the
 *   command starts, so a descriptor dsh inherited from its launcher never reaches a command.
 */

/** What one sandbox allows. */
export interface SandboxShape {
  /** Directories bound writable (absolute; missing ones are skipped). */
  readonly writable: readonly string[]
  /** Directories replaced by a private empty tmpfs (the temp directory of a read-only sandbox). */
  readonly privateTemp: readonly string[]
  /** The session's private temp directory (`source`) bound writable over the temp directory (`target`). */
  readonly tempBinding?: { readonly source: string; readonly target: string }
  /** Directories bound read-only again over a private temp (the working directory when it lies in it). */
  readonly reexposed?: readonly string[]
  /** Existing directories bound writable onto themselves so they cannot be renamed away (git directories and the directories down to them), ancestors first. */
  readonly pinned?: readonly string[]
  /** Paths bound read-only again over the writable ones (dsh's state, `.git/config`, …; missing ones skipped). */
  readonly protectedDirs?: readonly string[]
  /** Existing paths hidden: a directory under an empty tmpfs, anything else under `/dev/null`. */
  readonly masked?: readonly { readonly path: string; readonly kind: 'directory' | 'file' }[]
  /** False: no network (a fresh network namespace with only loopback). */
  readonly network: boolean
  /** True: the sandbox ends with the command (default); false: it lives until its init is killed. */
  readonly dieWithParent?: boolean
  /** The launcher's owner id (sandbox-reaper.ts), set inside as `DSH_SANDBOX_OWNER`: a dsh that dies ends the sandboxes holding it. */
  readonly ownerId?: string
  /** Test-only weakening (`DSH_TEST_WEAK_SANDBOX`): share dsh's pid namespace. Never set otherwise. */
  readonly sharePidNamespace?: boolean
}

/** Closes inherited descriptors other than 0–2 and Node's IPC channel, then runs the command. */
const CLOSE_FDS = 'for f in /proc/self/fd/*; do n=${f##*/}; case $n in 0|1|2|"$NODE_CHANNEL_FD") ;; *) eval "exec $n>&-";; esac; done; exec "$@"'

/** `bwrap` arguments for running `file args…` in `cwd` inside the sandbox. */
export function bwrapArguments(shape: SandboxShape, cwd: string, file: string, args: readonly string[]): string[] {
  const list = ['--ro-bind', '/', '/', '--dev', '/dev']
  if (shape.sharePidNamespace !== true) list.push('--unshare-pid')
  list.push('--unshare-ipc', '--proc', '/proc', '--cap-drop', 'ALL')
  for (const dir of shape.privateTemp) list.push('--tmpfs', dir)
  if (shape.tempBinding !== undefined) list.push('--bind', shape.tempBinding.source, shape.tempBinding.target)
  for (const dir of shape.reexposed ?? []) list.push('--ro-bind-try', dir, dir)
  for (const dir of shape.writable) list.push('--bind-try', dir, dir)
  for (const dir of shape.pinned ?? []) list.push('--bind-try', dir, dir)
  for (const dir of shape.protectedDirs ?? []) list.push('--ro-bind-try', dir, dir)
  for (const mask of shape.masked ?? []) {
    if (mask.kind === 'directory') list.push('--tmpfs', mask.path)
    else list.push('--ro-bind', '/dev/null', mask.path)
  }
  if (!shape.network) list.push('--unshare-net')
  if (shape.dieWithParent !== false) list.push('--die-with-parent')
  if (shape.ownerId !== undefined) list.push('--setenv', 'DSH_SANDBOX_OWNER', shape.ownerId)
  list.push('--chdir', cwd, '--', 'bash', '-c', CLOSE_FDS, 'dsh-sandbox', file, ...args)
  return list
}
