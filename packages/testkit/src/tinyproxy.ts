/**
 * A real HTTP proxy for tests: Debian's `tinyproxy` in the foreground on a loopback port, allowed
 * for loopback clients only; `CONNECT` may reach any port, or only `connectPorts` when given (as a
 * proxy that allows tunnels to 443 alone refuses the others with 403). It logs
 * each request it handles (`Request (file descriptor N): CONNECT host:port HTTP/1.1`), which is
 * how a test sees that a request went through it. `close()` stops it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './free-port.ts'

/** A running tinyproxy. */
export interface Tinyproxy {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string
  readonly port: number
  /** What it logged so far. */
  log(): string
  close(): Promise<void>
}

/** How long the proxy may take to listen before the start counts as failed. */
const START_GUARD_MS = 20_000

function attempt(port: number, dir: string, options: TinyproxyOptions): Promise<{ child: ChildProcess; output: () => string } | undefined> {
  const config = join(dir, `tinyproxy-${port}.conf`)
  writeFileSync(config, [`Port ${port}`, 'Listen 127.0.0.1', 'Timeout 60', 'MaxClients 50', 'Allow 127.0.0.1', 'LogLevel Info', ...(options.connectPorts ?? []).map((each) => `ConnectPort ${each}`), ...(options.basicAuth === undefined ? [] : [`BasicAuth ${options.basicAuth.user} ${options.basicAuth.password}`]), ''].join('\n'))
  const child = spawn('tinyproxy', ['-d', '-c', config], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const collect = (chunk: Buffer): void => {
    output += chunk.toString()
  }
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`tinyproxy did not listen within ${START_GUARD_MS / 1000} s:\n${output}`))
    }, START_GUARD_MS)
    const check = (): void => {
      if (!output.includes('Accepting connections')) return
      clearTimeout(timer)
      resolve({ child, output: () => output })
    }
    child.stdout?.on('data', check)
    child.stderr?.on('data', check)
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(new Error(`tinyproxy could not start (install Debian's tinyproxy): ${error.message}`))
    })
    // Exiting before it listens: the port was taken meanwhile (the caller tries another), unless
    // it could not read its configuration, which another port does not mend.
    child.on('exit', () => {
      clearTimeout(timer)
      if (/Unable to parse config file|Syntax error/.test(output)) reject(new Error(`tinyproxy refused its configuration:\n${output}`))
      else resolve(undefined)
    })
  })
}

/** How the proxy is configured. */
export interface TinyproxyOptions {
  /** The only ports `CONNECT` may reach (default: any). */
  readonly connectPorts?: readonly number[]
  /** Require these credentials (`Proxy-Authorization: Basic`); others get 407. tinyproxy's configuration takes letters, digits, `.`, `-` and `_` in them. */
  readonly basicAuth?: { readonly user: string; readonly password: string }
}

/** Starts tinyproxy. */
export async function startTinyproxy(options: TinyproxyOptions = {}): Promise<Tinyproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-tinyproxy-'))
  try {
    for (let tries = 0; tries < 5; tries++) {
      const port = await freePort()
      const started = await attempt(port, dir, options)
      if (started === undefined) continue
      const exited = new Promise<void>((resolve) => started.child.on('exit', () => resolve()))
      return {
        url: `http://127.0.0.1:${port}`,
        port,
        log: started.output,
        async close() {
          started.child.kill('SIGTERM')
          await exited
          rmSync(dir, { recursive: true, force: true })
        },
      }
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  rmSync(dir, { recursive: true, force: true })
  throw new Error('tinyproxy: five ports in a row were taken before it could listen on them')
}
