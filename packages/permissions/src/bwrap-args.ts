/**
 * The bubblewrap command line of one sandboxed launch: the whole filesystem read-only, fresh
 * `/dev` and `/proc`, no capabilities (`--cap-drop ALL`: bubblewrap started by root keeps them
 * otherwise, and with them a command remounts `/` writable or walks into dsh's own view of the
 * filesystem through `/proc/PID/root`), the writable roots bound writable (in `read-only` sandboxes none, and the
 * temp directory is a private empty tmpfs instead) except dsh's own state (`$DSH_HOME`), which
 * stays read-only even inside a root, the network namespace unshared when the
 * network is off, and the sandbox ended when dsh dies (`--die-with-parent`). The pid namespace is
 * shared on purpose: background processes outlive the call and dsh's process tracking (process
 * groups, `DSH_TOOL_CALL` markers in `/proc`) sees and ends them.
 */

/** What one sandbox allows. */
export interface SandboxShape {
  /** Directories bound writable (absolute; missing ones are skipped). */
  readonly writable: readonly string[]
  /** Directories replaced by a private empty tmpfs (the temp directory of a read-only sandbox). */
  readonly privateTemp: readonly string[]
  /** Directories bound read-only again over a private temp (the working directory when it lies in it). */
  readonly reexposed?: readonly string[]
  /** Directories bound read-only again over the writable ones (dsh's own state, `$DSH_HOME`). */
  readonly protectedDirs?: readonly string[]
  /** False: no network (a fresh network namespace with only loopback). */
  readonly network: boolean
}

/** `bwrap` arguments for running `file args…` in `cwd` inside the sandbox. */
export function bwrapArguments(shape: SandboxShape, cwd: string, file: string, args: readonly string[]): string[] {
  const list = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--cap-drop', 'ALL']
  for (const dir of shape.privateTemp) list.push('--tmpfs', dir)
  for (const dir of shape.reexposed ?? []) list.push('--ro-bind-try', dir, dir)
  for (const dir of shape.writable) list.push('--bind-try', dir, dir)
  for (const dir of shape.protectedDirs ?? []) list.push('--ro-bind-try', dir, dir)
  if (!shape.network) list.push('--unshare-net')
  list.push('--die-with-parent', '--chdir', cwd, '--', file, ...args)
  return list
}
