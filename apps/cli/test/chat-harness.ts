// Runs the built dsh binary for the chat tests: under a pseudo-terminal (through pty-driver.py,
// python3's pty module, so no tmux is needed) or with lines piped into stdin.
// DSH_TEST_BINARY overrides the binary (a local build elsewhere); the default is node_modules/.bin/dsh.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dshBinary, type DshResult } from './run-dsh.ts'

const driver = new URL('./pty-driver.py', import.meta.url).pathname

/** The binary under test. */
export function chatBinary(): string {
  const binary = process.env['DSH_TEST_BINARY'] ?? dshBinary
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run npm run build`)
  return binary
}

/** One step of a terminal script (see pty-driver.py). */
export type PtyStep =
  | { readonly send: string }
  | { readonly expect: string; readonly timeout?: number }
  | { readonly sleep: number }
  | { readonly exit: number; readonly timeout?: number }

/** What the driver reports. */
export interface PtyResult {
  readonly ok: boolean
  readonly failed: Record<string, unknown> | null
  /** Raw terminal output, escape codes and carriage returns included. */
  readonly transcript: string
  readonly exitCode: number | null
}

function isPtyResult(value: unknown): value is PtyResult {
  return typeof value === 'object' && value !== null && 'ok' in value && typeof value.ok === 'boolean' && 'transcript' in value && typeof value.transcript === 'string'
}

/** Output with ANSI sequences and carriage returns removed, as the expectations see it. */
export function plainText(transcript: string): string {
  // oxlint-disable-next-line no-control-regex -- the pattern matches ANSI escape sequences on purpose.
  return transcript.replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '').replace(/\r/g, '')
}

function minimalEnv(cwd: string, env: Record<string, string> | undefined): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: cwd, TERM: 'xterm-256color', ...env }
}

/** Runs dsh under a pseudo-terminal through `steps`; rejects with the transcript when a step fails. */
export function runPty(args: readonly string[], steps: readonly PtyStep[], options: { cwd: string; env?: Record<string, string>; timeoutMs?: number }): Promise<PtyResult> {
  const binary = chatBinary()
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [driver, JSON.stringify(steps), binary, ...args], { cwd: options.cwd, env: minimalEnv(options.cwd, options.env), stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`pty run of dsh ${args.join(' ')} timed out\n${stdout}\n${stderr}`))
    }, options.timeoutMs ?? 25_000)
    child.on('error', reject)
    child.on('close', () => {
      clearTimeout(timer)
      let result: unknown
      try {
        result = JSON.parse(stdout)
      } catch {
        // The driver itself broke (python3 missing or crashed): report what it printed instead.
        result = undefined
      }
      if (!isPtyResult(result)) {
        reject(new Error(`pty-driver.py did not report:\n${stdout}\n${stderr}`))
        return
      }
      if (result.ok) resolve(result)
      else reject(new Error(`pty step failed: ${JSON.stringify(result.failed)}\n--- transcript ---\n${plainText(result.transcript)}`))
    })
  })
}

/** Runs dsh with `input` piped into stdin (stdout and stderr are pipes, not terminals). */
export function runDshPiped(args: readonly string[], input: string, options: { cwd: string; env?: Record<string, string>; timeoutMs?: number }): Promise<DshResult> {
  const binary = chatBinary()
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [...args], { cwd: options.cwd, env: minimalEnv(options.cwd, options.env), stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`dsh ${args.join(' ')} timed out\nstdout: ${stdout}\nstderr: ${stderr}`))
    }, options.timeoutMs ?? 20_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
    child.stdin.end(input)
  })
}
