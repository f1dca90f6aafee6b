/**
 * The macOS counterpart of the bubblewrap sandbox, designed and generated but not yet wired in
 * (README "Safety"): a Seatbelt profile for `sandbox-exec -p PROFILE -- bash -c …` that reads
 * everywhere, writes only the writable roots, the temp directories and a few device files, and
 * cuts the network (except local sockets) when it is off.
 */

/** What the profile allows. */
export interface SeatbeltShape {
  /** Directories writable (absolute, canonical: `/private/tmp`, not `/tmp`). */
  readonly writable: readonly string[]
  /** False: only local (unix) sockets. */
  readonly network: boolean
}

/** A string literal in the profile language. */
function literal(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}

/** The profile text. */
export function seatbeltProfile(shape: SeatbeltShape): string {
  const writable = shape.writable.map((dir) => `  (subpath ${literal(dir)})`)
  const devices = ['/dev/null', '/dev/zero', '/dev/tty', '/dev/stdout', '/dev/stderr', '/dev/dtracehelper'].map((device) => `  (literal ${literal(device)})`)
  return [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read mach-lookup ipc-posix-shm pseudo-tty)',
    '(allow file-read*)',
    '(allow file-write*',
    ...writable,
    ...devices,
    ')',
    shape.network ? '(allow network*)' : '(allow network* (remote unix-socket))',
    '',
  ].join('\n')
}
