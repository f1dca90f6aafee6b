/**
 * `/docs` in the chat: the maintainer-doc-guard verbs for the current session, as text. Failures
 * become one line; with the guard off it says how to turn it on.
 */
import { isGuardError, runDocsVerb, type OperatorService } from '@dsh/maintainer-doc-guard'

/** Runs a `/docs` verb; never throws for the operator's own mistakes. */
export async function chatDocs(service: OperatorService | undefined, args: readonly string[], sessionId: string): Promise<string> {
  if (service === undefined) return 'maintainer-doc-guard is off; turn it on with `maintainerDocGuard: { enabled: true }` in a --config file'
  try {
    return await runDocsVerb(service, args, { sessionId })
  } catch (error) {
    // Operator mistakes (a bad name, an unknown key) are shown as one line; anything else is a real failure.
    if (isGuardError(error)) return `docs: ${error.message}`
    throw error
  }
}
