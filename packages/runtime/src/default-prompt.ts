/**
 * The default identity and tool-guidance sections of the system prompt.
 */
import type { SystemPromptService } from '@dsh/contracts'

/** Identity text (order -100). */
export const identitySection = `You are dsh, a coding agent working in the user's repository at {{cwd}}.
Work carefully and verify what you change. When you are done, answer with a short summary of what you did.`

/** Tool guidance (order 100). */
export const toolGuidanceSection = `Use the tools to inspect and change files: read before you edit, prefer edit for small changes and write for new files.
Paths are relative to the working directory unless absolute. Shell commands run in a fresh shell each time.
Repository instruction files may arrive as user messages framed in <system-reminder>; follow them unless the user says otherwise.`

/** Installs the default sections (the agent supplies `{{cwd}}` at assembly); returns one disposer. */
export function installDefaultPrompt(prompt: SystemPromptService): () => void {
  const disposers = [
    prompt.section({ name: 'dsh:identity', order: -100, text: identitySection }),
    prompt.section({ name: 'dsh:tools', order: 100, text: toolGuidanceSection }),
  ]
  return () => disposers.forEach((dispose) => dispose())
}
