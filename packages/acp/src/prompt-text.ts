/**
 * The text the model gets for an ACP prompt. Text blocks are kept as they are; a resource link
 * becomes `[@name](uri)` (the model can read the file it names); an embedded text resource (an
 * editor's selection or open buffer) becomes a `<resource uri="…">` block holding its text; a
 * binary resource, an image or audio (not advertised, so a client should not send them) become
 * a one-line note that it was left out. Blocks are joined with newlines.
 */
import type { ContentBlock } from '@agentclientprotocol/sdk'

/** Closing tags inside an embedded text cannot end its block early. */
const escapeClose = (text: string): string => text.replaceAll('</resource>', '<\\/resource>')

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text
    case 'resource_link':
      return `[@${block.name}](${block.uri})`
    case 'resource': {
      const resource = block.resource
      if ('text' in resource) return `<resource uri="${resource.uri}">\n${escapeClose(resource.text)}\n</resource>`
      return `[binary resource left out: ${resource.uri}${resource.mimeType === undefined || resource.mimeType === null ? '' : ` (${resource.mimeType})`}]`
    }
    case 'image':
      return `[image left out: this model takes text only]`
    case 'audio':
      return `[audio left out: this model takes text only]`
    default: {
      const unreachable: never = block
      throw new Error(`unknown content block ${JSON.stringify(unreachable)}`)
    }
  }
}

/** The prompt text of `blocks`. */
export function promptText(blocks: readonly ContentBlock[]): string {
  return blocks.map(blockText).join('\n')
}
