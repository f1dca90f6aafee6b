/**
 * The project root of a working directory: the nearest ancestor holding `.git` (a directory or a
 * worktree's file), else the directory itself. MCP's project-scoped servers, `.mcp.json` and its
 * trust are keyed by it, and Claude Code's project settings are read there.
 */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** The project root of `cwd` (canonical, absolute). */
export function projectRootOf(cwd: string): string {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir
    if (dirname(dir) === dir) return cwd
  }
}
