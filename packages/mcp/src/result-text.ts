/**
 * The text the model sees for a `tools/call` result: text blocks as they are, images and audio
 * described (`[image: image/png, 1234 bytes]`), resource links and embedded resources named (an
 * embedded text resource is shown), structured content as JSON when there is no other content.
 * Capped at `maxOutputChars` with the bash tool's omission note.
 */
import type { CallToolResult } from '@modelcontextprotocol/client'
import { CappedOutput } from '@dsh/tools'

const bytesOf = (base64: string): number => Math.floor((base64.replace(/=+$/, '').length * 3) / 4)

/** The text of one content block (tool results and prompt messages share the shape). */
export function blockText(block: CallToolResult['content'][number]): string {
  switch (block.type) {
    case 'text':
      return block.text
    case 'image':
      return `[image: ${block.mimeType}, ${bytesOf(block.data)} bytes]`
    case 'audio':
      return `[audio: ${block.mimeType}, ${bytesOf(block.data)} bytes]`
    case 'resource_link':
      return `[resource link: ${block.uri}${block.name === undefined ? '' : ` (${block.name})`}${block.mimeType === undefined ? '' : `, ${block.mimeType}`}]`
    case 'resource': {
      const resource = block.resource
      if ('text' in resource && typeof resource.text === 'string') return `[resource: ${resource.uri}]\n${resource.text}`
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : ''
      return `[resource: ${resource.uri}${resource.mimeType === undefined ? '' : `, ${resource.mimeType}`}, ${bytesOf(blob)} bytes]`
    }
    default:
      return `[${String((block as { type?: unknown }).type)} content]`
  }
}

/** The model's text of a result. */
export function resultText(result: CallToolResult, maxOutputChars: number): string {
  const parts = (result.content ?? []).map(blockText)
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2))
  const output = new CappedOutput(maxOutputChars)
  output.append(parts.length === 0 ? '(no output)' : parts.join('\n'))
  return output.text()
}
