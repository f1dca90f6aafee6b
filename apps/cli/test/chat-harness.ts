// Runs the built dsh binary for the chat tests: under a pseudo-terminal (through pty-driver.py,
// python3's pty module, so no tmux is needed) or with lines piped into stdin.
// DSH_TEST_BINARY overrides the binary (a local build elsewhere); the default is node_modules/.bin/dsh.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { dshBinary, spawnCollect, testEnv, type DshResult } from './run-dsh.ts'

const driver = fileURLToPath(new URL('./pty-driver.py', import.meta.url))

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
  | { readonly resize: readonly [number, number] }
  | { readonly signal: 'TERM' | 'HUP' | 'INT' }
  | { readonly file: string; readonly timeout?: number }
  | { readonly touch: string }
  | { readonly hangup: true }

/** What the driver reports. */
export interface PtyResult {
  readonly ok: boolean
  readonly failed: Record<string, unknown> | null
  /** Raw terminal output, escape codes and carriage returns included. */
  readonly transcript: string
  readonly exitCode: number | null
  /** After the command ended: true when the terminal is back in line mode with echo on. */
  readonly cooked?: boolean | null
}

function isPtyResult(value: unknown): value is PtyResult {
  return typeof value === 'object' && value !== null && 'ok' in value && typeof value.ok === 'boolean' && 'transcript' in value && typeof value.transcript === 'string'
}

// oxlint-disable-next-line no-control-regex -- the pattern matches OSC and APC sequences on purpose.
const stringSequence = /\x1b[\]_][^\x07\x1b]*(?:\x07|\x1b\\)/g
// oxlint-disable-next-line no-control-regex -- the pattern matches ANSI escape sequences on purpose.
const csiSequence = /\x1b\[[0-?]*[ -/]*[@-~]/g

/** Output with ANSI sequences and carriage returns removed, as the expectations see it. */
export function plainText(transcript: string): string {
  return transcript.replace(stringSequence, '').replace(csiSequence, '').replace(/\r/g, '')
}

function minimalEnv(cwd: string, env: Record<string, string> | undefined): Record<string, string> {
  return testEnv(cwd, { TERM: 'xterm-256color', ...env })
}

/** Runs dsh under a pseudo-terminal through `steps`; rejects with the transcript when a step fails. */
export async function runPty(args: readonly string[], steps: readonly PtyStep[], options: { cwd: string; env?: Record<string, string>; timeoutMs?: number }): Promise<PtyResult> {
  const { stdout, stderr } = await spawnCollect('python3', [driver, JSON.stringify(steps), chatBinary(), ...args], { cwd: options.cwd, env: minimalEnv(options.cwd, options.env), timeoutMs: options.timeoutMs ?? 90_000 })
  let result: unknown
  try {
    result = JSON.parse(stdout)
  } catch {
    // The driver itself broke (python3 missing or crashed): report what it printed instead.
    result = undefined
  }
  if (!isPtyResult(result)) throw new Error(`pty-driver.py did not report:\n${stdout}\n${stderr}`)
  if (!result.ok) throw new Error(`pty step failed: ${JSON.stringify(result.failed)}\n--- transcript ---\n${plainText(result.transcript)}`)
  return result
}

/** Runs dsh with `input` piped into stdin (stdout and stderr are pipes, not terminals). */
export function runDshPiped(args: readonly string[], input: string, options: { cwd: string; env?: Record<string, string>; timeoutMs?: number }): Promise<DshResult> {
  return spawnCollect(chatBinary(), args, { cwd: options.cwd, env: minimalEnv(options.cwd, options.env), input, ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) })
}
