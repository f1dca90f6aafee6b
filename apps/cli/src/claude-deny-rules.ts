/**
 * The deny rules of Claude Code's settings files, joined to dsh's: `permissions.deny` of
 * `~/.claude/settings.json` and, for the project (the working directory and its repository root),
 * of `.claude/settings.json` and `.claude/settings.local.json`. Only deny rules are taken — a rule
 * can only take a permission away, so a repository's file needs no trust; its allow rules (and
 * `defaultMode`, `additionalDirectories`) are not read, since a repository must not grant itself
 * anything. Each file is read once at start without blocking (a FIFO or a link to a device there
 * is named and skipped); a rule dsh cannot parse is one line and the file's other rules apply.
 */
import { join } from 'node:path'
import { usableRules } from '@dsh/permissions'
import { projectRootOf, readSmallFile } from '@dsh/runtime'

/** One file's deny rules. */
export interface ClaudeDenyLayer {
  readonly file: string
  readonly deny: readonly string[]
}

const MAX_BYTES = 4 * 1024 * 1024

/** The files read, in order (a directory named twice is read once). */
export function claudeSettingsFiles(options: { readonly home: string; readonly cwd: string }): string[] {
  const dirs = [...new Set([options.cwd, projectRootOf(options.cwd)])]
  return [...new Set([join(options.home, '.claude', 'settings.json'), ...dirs.flatMap((dir) => [join(dir, '.claude', 'settings.json'), join(dir, '.claude', 'settings.local.json')])])]
}

function denyList(text: string): unknown {
  const value: unknown = JSON.parse(text)
  if (typeof value !== 'object' || value === null) return undefined
  const permissions: unknown = Reflect.get(value, 'permissions')
  return typeof permissions === 'object' && permissions !== null ? Reflect.get(permissions, 'deny') : undefined
}

/** Reads the deny rules of every file there is; `report` gets one line per problem. */
export function claudeDenyRules(options: { readonly home: string; readonly cwd: string; readonly report: (line: string) => void }): ClaudeDenyLayer[] {
  const layers: ClaudeDenyLayer[] = []
  for (const file of claudeSettingsFiles(options)) {
    const read = readSmallFile(file, { maxBytes: MAX_BYTES })
    if (read.kind === 'absent') continue
    if (read.kind !== 'file') {
      options.report(`warning: ${file}: ${read.kind === 'unreadable' ? `cannot be read (${read.reason})` : 'not a small regular file'}; its deny rules do not apply`)
      continue
    }
    let deny: unknown
    try {
      deny = denyList(read.bytes.toString('utf8'))
    } catch (error) {
      // Not JSON: said once; the other files still count.
      options.report(`warning: ${file}: not valid JSON (${error instanceof Error ? error.message : String(error)}); its deny rules do not apply`)
      continue
    }
    if (deny === undefined) continue
    if (!Array.isArray(deny) || !deny.every((rule) => typeof rule === 'string')) {
      options.report(`warning: ${file}: permissions.deny is not a list of strings; its deny rules do not apply`)
      continue
    }
    const usable = usableRules({ deny }, `${file}: permissions`, options.report).deny ?? []
    if (usable.length > 0) layers.push({ file, deny: usable })
  }
  return layers
}
