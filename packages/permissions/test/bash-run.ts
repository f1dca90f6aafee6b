// The bash tool as the host runs it, for sandbox tests: a full-auto launcher over a test tree, a run
// context in a repository (the local filesystem with the repository as its writable root), and a
// call through a launcher.
import type { ToolOutput, ToolRunContext } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { createBashTool, type ToolProcesses } from '@dsh/tools'
import { createSandboxLauncher, type SandboxLauncher, type SandboxLauncherOptions } from '../src/index.ts'

/** The run context of one bash call in `repo`. */
export function bashContext(repo: string): ToolRunContext {
  const signal = new AbortController().signal
  return {
    cwd: repo,
    fs: createLocalFileSystem({ writableRoots: [repo] }),
    signal,
    execution: { callId: 'c1', name: 'bash', arguments: {}, signal, token: Symbol('c1') },
    dispatch: () => Promise.reject(new Error('no nested calls here')),
    deferContext: () => undefined,
  }
}

/** Runs `command` in `repo` with the bash tool on `launcher` (background processes tracked by `processes`). */
export const runBash = (options: { readonly repo: string; readonly launcher: SandboxLauncher; readonly processes: ToolProcesses }, command: string): Promise<ToolOutput> =>
  createBashTool({ launcher: options.launcher, processes: options.processes }).execute({ command }, bashContext(options.repo))

/** A full-auto launcher over `tree`'s `tmp/` and `dsh/` (DSH_HOME) that writes its warnings to `warnings`. */
export function treeLauncher(tree: { path(relative: string): string }, warnings: string[], extra: Partial<SandboxLauncherOptions> = {}): SandboxLauncher {
  return createSandboxLauncher({ mode: 'full-auto', network: true, secretVariables: [], env: process.env, tempDir: tree.path('tmp'), dshHome: tree.path('dsh'), warn: (line) => warnings.push(line), interactive: false, ...extra })
}
