/**
 * The contents of the files a prompt `@`-mentions go with it, as Claude Code attaches them: at the
 * first step of a turn each mentioned path that is a file is read with the session's own `read`
 * tool, through the whole tool pipeline (permission policy, hooks, secret locations), and what
 * the read returned follows the prompt in one user message. A mention that is a directory, or
 * names nothing, stays text (workspace-context still joins its directories). A read the pipeline
 * refuses or that fails (binary, denied) is named with its reason instead of the contents; so is
 * a file past the prompt's attachment budget. Nothing is attached when the session has no `read`
 * tool. The message is an ordinary part of the turn: logged, resumed, compacted and rewound with it.
 */
import type { FileSystemPort, ToolFinalOutcome, UserMessage } from '@dsh/contracts'
import type { AttachedFile } from './agent-events.ts'
import { createUserMessage } from './message-factory.ts'
import { mentionTokens, typedText } from './mention-tokens.ts'
import { runToolCall, type PipelineDeps } from './tool-pipeline.ts'

/** The plugin name the attachment message is sourced to. */
export const MENTIONS_SOURCE = 'mentions'

/** What the attached contents of one prompt may take, in UTF-8 bytes. */
export const ATTACH_MAX_BYTES = 256 * 1024

/** The first line of the attachment message. */
export const ATTACHED_HEADER = 'Files the user attached with @ (as the read tool shows them; read again for any part left out):'

/** One mention's fate. */
type Attached = { readonly kind: 'file'; readonly token: string; readonly text: string } | { readonly kind: 'refused'; readonly token: string; readonly why: string }

/** The files an attachment message names (its `source.data`), or undefined for any other message. */
export function attachedFilesOf(message: UserMessage): readonly AttachedFile[] | undefined {
  const { source } = message
  if (source.kind !== 'plugin' || source.plugin !== MENTIONS_SOURCE || typeof source.data !== 'object' || source.data === null) return undefined
  const files: unknown = Reflect.get(source.data, 'files')
  if (!Array.isArray(files)) return undefined
  const out: AttachedFile[] = []
  for (const file of files) {
    const path: unknown = typeof file === 'object' && file !== null ? Reflect.get(file, 'path') : undefined
    const refused: unknown = typeof file === 'object' && file !== null ? Reflect.get(file, 'refused') : undefined
    if (typeof path === 'string') out.push({ path, ...(typeof refused === 'string' ? { refused } : {}) })
  }
  return out
}

async function isFile(fs: FileSystemPort, token: string, cwd: string, signal: AbortSignal): Promise<boolean> {
  try {
    const target = await fs.resolve(token, { cwd, signal })
    return (await fs.stat(target.path, signal))?.type === 'file'
  } catch (error) {
    // A path that cannot be examined is no attachment: the mention stays text for the model.
    if (signal.aborted) throw error
    return false
  }
}

/** The first line of a failed read's result, for the "not attached" line. */
const reasonOf = (outcome: ToolFinalOutcome): string => outcome.content.split('\n')[0] ?? 'the read failed'

/** The message text for `attached` (at least one). */
function attachmentText(attached: readonly Attached[]): string {
  const parts = attached.map((item) => (item.kind === 'file' ? `<file path="${item.token}">\n${item.text}\n</file>` : `@${item.token} was not attached: ${item.why}`))
  return [ATTACHED_HEADER, ...parts].join('\n\n')
}

/**
 * The attachment message for the prompt among `messages`, or undefined when it mentions no file.
 * Each file is read through `pipeline` (call ids `mention-N`). Rethrows only cancellation.
 */
export async function mentionAttachments(pipeline: PipelineDeps, messages: readonly UserMessage[], signal: AbortSignal): Promise<UserMessage | undefined> {
  const { fs } = pipeline
  if (fs === undefined || pipeline.registry.get('read') === undefined || pipeline.visibility?.hiding('read') !== undefined) return undefined
  const attached: Attached[] = []
  let bytes = 0
  for (const token of mentionTokens(typedText(messages))) {
    if (!(await isFile(fs, token, pipeline.cwd, signal))) continue
    if (bytes >= ATTACH_MAX_BYTES) {
      attached.push({ kind: 'refused', token, why: `the files attached to one prompt are limited to ${ATTACH_MAX_BYTES / 1024} KiB; read it with the read tool` })
      continue
    }
    const outcome = await runToolCall(pipeline, { callId: `mention-${attached.length + 1}`, name: 'read', rawArguments: JSON.stringify({ file_path: token }), signal })
    signal.throwIfAborted()
    if (outcome.isError) {
      attached.push({ kind: 'refused', token, why: reasonOf(outcome) })
      continue
    }
    const size = Buffer.byteLength(outcome.content, 'utf8')
    if (bytes + size > ATTACH_MAX_BYTES) {
      attached.push({ kind: 'refused', token, why: `it would take the files attached to one prompt past ${ATTACH_MAX_BYTES / 1024} KiB; read it with the read tool` })
      bytes = ATTACH_MAX_BYTES
      continue
    }
    bytes += size
    attached.push({ kind: 'file', token, text: outcome.content })
  }
  if (attached.length === 0) return undefined
  const files: AttachedFile[] = attached.map((item) => (item.kind === 'file' ? { path: item.token } : { path: item.token, refused: item.why }))
  return createUserMessage({ text: attachmentText(attached), source: { kind: 'plugin', plugin: MENTIONS_SOURCE, form: 'notice', data: { files } } })
}
