// Shared fixtures for the settings tests: a sample schema, a store factory with a captured log,
// and an editor-style file replacement.
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { z } from 'zod'
import { tempTree, type TempTree, type TreeSpec } from '@dsh/testkit'
import { SettingsStore, type SettingsStoreOptions } from '../src/index.ts'

export const GuardSchema = z.object({
  nudgeAfter: z.number().int().nonnegative(),
  dryRun: z.boolean(),
  docsDir: z.string(),
})

export type Guard = z.infer<typeof GuardSchema>

export const GUARD_BASE: Guard = { nudgeAfter: 3, dryRun: false, docsDir: '.docs' }

export interface StoreFixture {
  readonly store: SettingsStore
  readonly file: string
  readonly lines: string[]
}

/** A temp tree plus every store opened in it; `dispose` closes the stores and removes the tree. */
export interface Sandbox {
  readonly tree: TempTree
  /** Opens a store over `home/settings.yaml` (or `relative`) whose log lines land in `lines`. */
  open(options?: Partial<SettingsStoreOptions> & { relative?: string }): StoreFixture
  dispose(): Promise<void>
}

export async function sandbox(spec: TreeSpec = {}): Promise<Sandbox> {
  const tree = await tempTree(spec, 'dsh-settings-')
  const stores: SettingsStore[] = []
  return {
    tree,
    open(options = {}) {
      const lines: string[] = []
      const { relative, ...rest } = options
      const file = rest.file ?? tree.path(relative ?? 'home/settings.yaml')
      const store = new SettingsStore({ debounceMs: 20, pollIntervalMs: 25, ...rest, file, logger: (line) => lines.push(line) })
      stores.push(store)
      return { store, file, lines }
    },
    async dispose() {
      for (const store of stores) store.close()
      await tree.dispose()
    },
  }
}

/** Replaces `file` the way most editors save: write a sibling, then rename over the original. */
export async function replaceFile(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFile(`${file}.edit~`, text)
  await rename(`${file}.edit~`, file)
}

/** Resolves after `ms`; only for asserting that something does NOT happen. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
