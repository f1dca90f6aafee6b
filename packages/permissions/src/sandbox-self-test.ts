/**
 * The self-test of `dsh sandbox check`: real commands through the launcher, each with the outcome
 * it should have — a write inside the working directory succeeds, a write outside every writable
 * root (`/`) is refused, a connection to a loopback listener of this process works only when the
 * network is on (a sandbox without network has its own, empty loopback), the command holds no
 * capabilities (with them, root could remount `/` writable), a write through
 * `/proc/$PPID/root` (the host's filesystem when the parent is outside the sandbox) is refused, a
 * signal to dsh's pid does not arrive (the command has its own pid namespace), a `SIGUSR1` to
 * dsh opens no inspector, and the protections of files planted for later and of a dying dsh
 * (self-test-planted.ts). Each check fails when the escape it tries works.
 */
import { url as inspectorUrl, close as closeInspector } from 'node:inspector'
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { firstLine, run, type SelfTestOptions, type SelfTestResult } from './self-test-run.ts'
import { creationCheck, executableCheck, newRepositoryCheck, protectedFileCheck, reaperCheck } from './self-test-planted.ts'

export type { SelfTestOptions, SelfTestResult } from './self-test-run.ts'


async function writeCheck(options: SelfTestOptions, dir: string, expected: 'allowed' | 'refused'): Promise<SelfTestResult> {
  const file = join(dir, `.sandbox-check-${randomBytes(4).toString('hex')}`)
  const result = await run(options.launcher, options, `echo check > '${file.replace(/'/g, `'\\''`)}'`)
  try {
    rmSync(file, { force: true })
  } catch {
    // The probe file may be unremovable (a root-owned directory); it is empty and named for what it is.
  }
  const actual = result.code === 0 ? 'allowed' : 'refused'
  return { what: `write ${expected === 'refused' && dir === '/' ? 'outside the roots (/)' : `inside ${dir}`}`, expected, actual, ...(result.code === 0 ? {} : { detail: firstLine(result.output) }) }
}

async function networkCheck(options: SelfTestOptions): Promise<SelfTestResult> {
  const server = createServer((socket) => socket.end())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  try {
    const result = await run(options.launcher, options, `exec 3<>/dev/tcp/127.0.0.1/${port}`)
    return { what: `connect to a loopback listener (127.0.0.1:${port})`, expected: options.network ? 'reachable' : 'cut', actual: result.code === 0 ? 'reachable' : 'cut', ...(result.code === 0 ? {} : { detail: firstLine(result.output) }) }
  } finally {
    server.close()
  }
}

async function capabilityCheck(options: SelfTestOptions): Promise<SelfTestResult> {
  const result = await run(options.launcher, options, 'grep "^CapEff:" /proc/self/status')
  const held = /^CapEff:\s*([0-9a-f]+)/m.exec(result.output)?.[1]
  const actual = held !== undefined && /^0+$/.test(held) ? 'none' : 'some'
  return { what: 'capabilities of a command', expected: 'none', actual, ...(actual === 'none' ? {} : { detail: firstLine(result.output) }) }
}

async function parentRootCheck(options: SelfTestOptions): Promise<SelfTestResult> {
  const name = `.sandbox-check-${randomBytes(4).toString('hex')}`
  const result = await run(options.launcher, options, `echo check > "/proc/$PPID/root/${name}"`)
  try {
    rmSync(join('/', name), { force: true })
  } catch {
    // Not there (the write was refused) or not removable by this user: nothing to clean.
  }
  const actual = result.code === 0 ? 'allowed' : 'refused'
  return { what: 'write through /proc/$PPID/root', expected: 'refused', actual, ...(actual === 'refused' ? {} : { detail: 'the sandbox\'s parent process is outside it' }) }
}

async function signalCheck(options: SelfTestOptions): Promise<SelfTestResult> {
  const result = await run(options.launcher, options, `kill -0 ${process.pid}`)
  const actual = result.code === 0 ? 'delivered' : 'refused'
  return { what: `signal to dsh (pid ${process.pid})`, expected: 'refused', actual, ...(actual === 'refused' ? {} : { detail: 'the command shares dsh\'s pid namespace' }) }
}

const pause = (ms: number): Promise<void> => new Promise((wake) => setTimeout(wake, ms))

async function inspectorCheck(options: SelfTestOptions): Promise<SelfTestResult> {
  const what = 'SIGUSR1 to dsh (Node\'s inspector)'
  const result = await run(options.launcher, options, `kill -USR1 ${process.pid}`)
  if (result.code !== 0) return { what, expected: 'no inspector', actual: 'no inspector' }
  // The signal arrived: Node opens the inspector shortly after, unless its port cannot be bound.
  for (let round = 0; round < 40 && inspectorUrl() === undefined; round += 1) await pause(25)
  const opened = inspectorUrl()
  if (opened === undefined) return { what, expected: 'no inspector', actual: 'signalled', detail: 'the signal reached dsh; its inspector port is unbindable' }
  closeInspector()
  return { what, expected: 'no inspector', actual: 'opened', detail: opened }
}

/** Runs the checks in order. */
export async function sandboxSelfTest(options: SelfTestOptions): Promise<SelfTestResult[]> {
  return [
    await writeCheck(options, options.cwd, options.writesInside ? 'allowed' : 'refused'),
    await writeCheck(options, '/', 'refused'),
    await networkCheck(options),
    await capabilityCheck(options),
    await parentRootCheck(options),
    await signalCheck(options),
    await inspectorCheck(options),
    ...(await protectedFileCheck(options)),
    ...(await executableCheck(options)),
    await creationCheck(options),
    await newRepositoryCheck(options),
    ...(await reaperCheck(options)),
  ]
}
