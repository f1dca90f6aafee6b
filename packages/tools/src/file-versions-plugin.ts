/**
 * Records into a {@link FileVersions} what the model saw of each file, per session: for `read`,
 * the version the file had just before it was read (a change during the read then counts as a
 * change, never the other way round); for `write` and `edit`, the version their own write left
 * (from the result's `meta.version`). Only successful calls with touched paths count.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { FileSystemPort, FsVersion } from '@dsh/contracts'
import type { FileVersions } from './file-versions.ts'

const versionOf = (value: unknown): FsVersion | undefined =>
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- a version is an opaque string the fs port produced (write and edit put it in meta)
  typeof value === 'string' ? (value as FsVersion) : undefined

const pathArgument = (args: unknown): string | undefined => {
  const value: unknown = typeof args === 'object' && args !== null ? Reflect.get(args, 'file_path') : undefined
  return typeof value === 'string' ? value : undefined
}

/** A cordis plugin keeping `versions` up to date from the tool pipeline. */
export function createFileVersionsPlugin(versions: FileVersions) {
  return {
    name: 'file-versions',
    apply(ctx: Context): void {
      const before = new Map<symbol, { readonly path: string; readonly version: FsVersion }>()
      ctx.on('tools/pre-execute', async (execution, next) => {
        const verdict = await next()
        const fs: FileSystemPort | undefined = ctx.get('fs')
        const file = pathArgument(execution.arguments)
        if (verdict.kind === 'deny' || execution.name !== 'read' || execution.agent === undefined || fs === undefined || file === undefined) return verdict
        try {
          const target = await fs.resolve(file, { cwd: execution.agent.cwd, signal: execution.signal })
          const info = await fs.stat(target.path, execution.signal)
          if (info?.type === 'file') before.set(execution.token, { path: target.path, version: info.version })
        } catch {
          // Swallowed: a path that cannot be resolved or stated is reported by the read itself;
          // it simply leaves no version behind.
        }
        return verdict
      })
      ctx.on('tools/result', (execution, outcome) => {
        const seen = before.get(execution.token)
        before.delete(execution.token)
        const sessionId = execution.agent?.id
        if (sessionId === undefined || outcome.isError) return
        for (const touched of outcome.touched) {
          if (touched.kind === 'read' && seen?.path === touched.path) versions.record(sessionId, touched.path, seen.version)
          const written = versionOf(outcome.meta?.['version'])
          if (touched.kind !== 'read' && written !== undefined && outcome.meta?.['path'] === touched.path) versions.record(sessionId, touched.path, written)
        }
      })
    },
  }
}
