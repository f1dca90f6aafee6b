/**
 * What the checks of `dsh sandbox check` share: their options, their result, and running one
 * script through the launcher (stdout and stderr together) as a shell call would.
 */
import { spawn } from 'node:child_process'
import type { LaunchPlan, ProcessLauncher } from '@dsh/contracts'

/** One check's result. */
export interface SelfTestResult {
  /** What was tried, e.g. `write inside /repo`. */
  readonly what: string
  /** What should happen and what did (`allowed`, `refused`, `reachable`, `cut`). */
  readonly expected: string
  readonly actual: string
  /** The command's own words when it failed (first line). */
  readonly detail?: string
}

/** Options of {@link sandboxSelfTest}. */
export interface SelfTestOptions {
  readonly launcher: ProcessLauncher
  readonly cwd: string
  readonly writableRoots: readonly string[]
  /** Whether the network should be reachable inside the sandbox. */
  readonly network: boolean
  /** False in a read-only sandbox: the write inside is expected to be refused too. */
  readonly writesInside: boolean
  /** Ends the launcher as dsh's end would (closes the reaper's pipe); absent: the reaper check is skipped. */
  readonly dispose?: () => void
}

/** Runs `script` in the sandbox; `outlivesCall` as the `bash` tool with a tracker asks. */
export function run(launcher: ProcessLauncher, options: SelfTestOptions, script: string, outlivesCall = false): Promise<{ code: number | null; output: string; plan: LaunchPlan }> {
  const plan = launcher.plan({ file: 'bash', args: ['-c', `exec 2>&1\n${script}`], cwd: options.cwd, env: process.env, writableRoots: options.writableRoots, ...(outlivesCall ? { outlivesCall } : {}) })
  return new Promise((resolve) => {
    const child = spawn(plan.file, plan.args, { cwd: options.cwd, env: plan.env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('error', (error) => resolve({ code: null, output: error.message, plan }))
    // A kept sandbox's init holds the pipes open after the command ends: its exit is the end then.
    child.on(outlivesCall ? 'exit' : 'close', (code) => {
      child.stdout.destroy()
      child.stderr.destroy()
      resolve({ code, output, plan })
    })
  })
}

export const firstLine = (text: string): string => text.trim().split('\n')[0] ?? ''
