// The policy's verdict for one call, with rules written as on the command line: the shared form
// of the rule tests (a sandbox present, a person to ask unless `interactive: false`).
import type { PermissionMode } from '@dsh/contracts'
import { decide, parseRule } from '@dsh/permissions'

export interface VerdictOptions {
  readonly allow?: readonly string[]
  readonly deny?: readonly string[]
  /** Session rules ("allow always" answers), as rule texts. */
  readonly session?: readonly string[]
  readonly interactive?: boolean
}

/** The verdict (`allow` / `ask` / `deny`) for `call` in `mode`. */
export function verdictOf(mode: PermissionMode, call: Parameters<typeof decide>[0]['call'], options: VerdictOptions = {}): string {
  return decide({
    mode,
    allow: (options.allow ?? []).map((rule) => parseRule(rule, '--allow')),
    deny: (options.deny ?? []).map((rule) => parseRule(rule, '--deny')),
    session: (options.session ?? []).map((rule) => parseRule(rule, 'allow always')),
    sandboxAvailable: true,
    interactive: options.interactive ?? true,
    call,
  }).verdict
}
