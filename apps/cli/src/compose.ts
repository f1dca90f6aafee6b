/**
 * Composition of the CLI product: the local filesystem, the core tools and the plugins on one host.
 */
import { tmpdir } from 'node:os'
import { createLocalFileSystem } from '@dsh/fs-local'
import { createHost, type AskPermission, type Host } from '@dsh/runtime'
import { coreTools } from '@dsh/tools'
import type { ToolDefinition } from '@dsh/contracts'
import type { ConfigFile } from './config-file.ts'

/** Inputs of a composition. */
export interface ComposeOptions {
  /** Resolved home. */
  readonly dshHome: string
  /** Session working directory (canonical). */
  readonly cwd: string
  /** Validated config file (empty object when none). */
  readonly config: ConfigFile
  /** Diagnostics sink. */
  readonly log: (line: string) => void
  /** Approval for `ask` verdicts. */
  readonly askPermission?: AskPermission
}

/** Builds the host with every product plugin mounted. */
export async function composeHost(options: ComposeOptions): Promise<Host> {
  const fs = createLocalFileSystem({ writableRoots: [options.cwd, tmpdir()] })
  const host = await createHost({
    dshHome: options.dshHome,
    fs,
    tools: coreTools() as unknown as ToolDefinition<never>[],
    log: options.log,
    ...(options.askPermission === undefined ? {} : { askPermission: options.askPermission }),
  })
  return host
}
