/** The short description of a permission mode that front ends show (chat banner and status line). */
import type { PermissionMode } from '@dsh/contracts'

/** One line, e.g. `ask before bash, run_code, web_fetch`. */
export function modeLabel(mode: PermissionMode): string {
  switch (mode) {
    case 'read-only':
      return 'read-only (shell sandboxed read-only)'
    case 'ask':
      return 'ask before bash, run_code, web_fetch'
    case 'auto-edit':
      return 'auto-edit (ask before bash, run_code, web_fetch)'
    case 'full-auto':
      return 'full-auto (shell sandboxed)'
    case 'danger-full-access':
      return 'danger-full-access (no sandbox)'
    default: {
      const unreachable: never = mode
      throw new Error(`unknown permission mode ${JSON.stringify(unreachable)}`)
    }
  }
}
