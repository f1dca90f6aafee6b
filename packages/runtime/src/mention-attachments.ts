/**
 * The contents of the files a prompt `@`-mentions go with it, as Claude Code attaches them: at the
 * first step of a turn each mentioned path that is a file is read with the session's own `read`
 * tool, through the whole tool pipeline (permission policy, hooks, secret locations), and what
 * the read returned follows the prompt in one user message. A mentioned directory inside the
 * working directory goes with it as the session's `glob` tool lists its files (`*`: every file
 * below it, ignore files honoured, one page), through the same pipeline, as Claude Code lists a
 * mentioned folder; one outside the working directory is named as not listed (a listing of `/`
 * would walk the whole disk before the turn starts). A mention that names nothing stays text
 * (workspace-context still joins the directories of every mention). A read or listing the
 * pipeline refuses or that fails (binary, denied) is named with its reason instead; so is one past
 * the prompt's attachment budget. Nothing is attached when the session has no `read` tool; a
 * directory stays text when it has no `glob` tool. The message is an ordinary part of the turn:
 * logged, resumed, compacted and rewound with it.
 */
import { isAbsolute, relative, sep } from 'node:path'
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
export const ATTACHED_HEADER = 'Files the user attached with @ (files as the read tool shows them, directories as glob lists them; read or glob again for any part left out):'

/** One mention's fate. */
type Attached =
  | { readonly kind: 'file'; readonly token: string; readonly text: string }
  | { readonly kind: 'directory'; readonly token: string; readonly text: string }
  | { readonly kind: 'refused'; readonly token: string; readonly why: string }

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

/** What a mention names: a file, a directory (with its resolved path), or nothing to attach. */
type Named = { readonly kind: 'file' } | { readonly kind: 'directory'; readonly path: string } | undefined

async function named(fs: FileSystemPort, token: string, cwd: string, signal: AbortSignal): Promise<Named> {
  try {
    const target = await fs.resolve(token, { cwd, signal })
    const type = (await fs.stat(target.path, signal))?.type
    if (type === 'file') return { kind: 'file' }
    return type === 'directory' ? { kind: 'directory', path: target.path } : undefined
  } catch (error) {
    // A path that cannot be examined is no attachment: the mention stays text for the model.
    if (signal.aborted) throw error
    return undefined
  }
}

/** Whether `path` is the directory `cwd` or below it (both resolved). */
function insideCwd(path: string, cwd: string): boolean {
  const rel = relative(cwd, path)
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)
}

/** The working directory resolved (links and all), as mentioned directories are; as given when it cannot be resolved. */
async function resolvedCwd(fs: FileSystemPort, cwd: string, signal: AbortSignal): Promise<string> {
  try {
    return (await fs.resolve(cwd, { cwd, signal })).path
  } catch (error) {
    // An unresolvable cwd: compare with it as given (a mention below it then still counts as inside).
    if (signal.aborted) throw error
    return cwd
  }
}

/** The first line of a failed read's result, for the "not attached" line. */
const reasonOf = (outcome: ToolFinalOutcome): string => outcome.content.split('\n')[0] ?? 'the read failed'

/** The message text for `attached` (at least one). */
function attachmentText(attached: readonly Attached[]): string {
  const parts = attached.map((item) => {
    switch (item.kind) {
      case 'file':
        return `<file path="${item.token}">\n${item.text}\n</file>`
      case 'directory':
        return `<directory path="${item.token}">\n${item.text}\n</directory>`
      case 'refused':
        return `@${item.token} was not attached: ${item.why}`
      default:
        return item satisfies never
    }
  })
  return [ATTACHED_HEADER, ...parts].join('\n\n')
}

/**
 * The attachment message for the prompt among `messages`, or undefined when it mentions no file.
 * Each file is read through `pipeline` (call ids `mention-N`). Rethrows only cancellation.
 */
export async function mentionAttachments(pipeline: PipelineDeps, messages: readonly UserMessage[], signal: AbortSignal): Promise<UserMessage | undefined> {
  const { fs } = pipeline
  if (fs === undefined || pipeline.registry.get('read') === undefined || pipeline.visibility?.hiding('read') !== undefined) return undefined
  const canList = pipeline.registry.get('glob') !== undefined && pipeline.visibility?.hiding('glob') === undefined
  const cwd = canList ? await resolvedCwd(fs, pipeline.cwd, signal) : pipeline.cwd
  const attached: Attached[] = []
  let bytes = 0
  for (const token of mentionTokens(typedText(messages))) {
    const what = await named(fs, token, pipeline.cwd, signal)
    if (what === undefined || (what.kind === 'directory' && !canList)) continue
    const tool = what.kind === 'file' ? 'read' : 'glob'
    const instead = tool === 'read' ? 'read it with the read tool' : 'list it with the glob tool'
    if (what.kind === 'directory' && !insideCwd(what.path, cwd)) {
      attached.push({ kind: 'refused', token, why: 'only directories inside the working directory are listed with the prompt; list it with the glob tool' })
      continue
    }
    if (bytes >= ATTACH_MAX_BYTES) {
      attached.push({ kind: 'refused', token, why: `the files attached to one prompt are limited to ${ATTACH_MAX_BYTES / 1024} KiB; ${instead}` })
      continue
    }
    const rawArguments = what.kind === 'file' ? JSON.stringify({ file_path: token }) : JSON.stringify({ pattern: '*', path: token })
    const outcome = await runToolCall(pipeline, { callId: `mention-${attached.length + 1}`, name: tool, rawArguments, signal })
    signal.throwIfAborted()
    if (outcome.isError) {
      attached.push({ kind: 'refused', token, why: reasonOf(outcome) })
      continue
    }
    const size = Buffer.byteLength(outcome.content, 'utf8')
    if (bytes + size > ATTACH_MAX_BYTES) {
      attached.push({ kind: 'refused', token, why: `it would take the files attached to one prompt past ${ATTACH_MAX_BYTES / 1024} KiB; ${instead}` })
      bytes = ATTACH_MAX_BYTES
      continue
    }
    bytes += size
    attached.push({ kind: what.kind, token, text: outcome.content })
  }
  if (attached.length === 0) return undefined
  const files: AttachedFile[] = attached.map((item) => (item.kind === 'refused' ? { path: item.token, refused: item.why } : { path: item.token }))
  return createUserMessage({ text: attachmentText(attached), source: { kind: 'plugin', plugin: MENTIONS_SOURCE, form: 'notice', data: { files } } })
}
