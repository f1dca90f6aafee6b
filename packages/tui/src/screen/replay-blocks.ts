/**
 * A stored session's visible conversation as transcript components, for `/resume`, `--resume`
 * and `--continue`: typed prompts, answers as markdown, tool calls as finished rows with their
 * result summaries (edits with their diff, as they showed live; a write's earlier content is not
 * known any more), and a note where compaction replaced earlier history. Injected context
 * (instruction files, notices) is not shown: the person did not type it.
 */
import type { Component } from '@mariozechner/pi-tui'
import type { Message, ToolFinalOutcome } from '@dsh/contracts'
import { attachedFilesOf, messageText } from '@dsh/runtime'
import { attachedLines } from '../attached-lines.ts'
import { COMPACTED_NOTE } from '../compacted-note.ts'
import type { Theme } from '../theme.ts'
import { editDiff } from './edit-preview.ts'
import { StreamingMarkdown } from './streaming-markdown.ts'
import { LinesBlock, PromptBlock } from './text-block.ts'
import { ToolRow } from './tool-row.ts'

function outcomeOf(message: Message | undefined): ToolFinalOutcome {
  const isError = message?.role === 'tool' && message.isError
  return { isError, content: message === undefined ? '' : messageText(message), touched: [], additionalContexts: [], status: isError ? 'failed' : 'ok' }
}

/** Components for the visible messages, in order. */
export function replayBlocks(messages: readonly Message[], theme: Theme, now: () => number): Component[] {
  const results = new Map<string, Message>()
  for (const message of messages) if (message.role === 'tool') results.set(message.callId, message)
  const blocks: Component[] = []
  for (const message of messages) {
    if (message.role === 'user') {
      const attached = attachedFilesOf(message)
      if (message.source.kind === 'user') blocks.push(new PromptBlock(messageText(message), theme))
      else if (attached !== undefined && attached.length > 0) blocks.push(new LinesBlock(attachedLines(attached), 'notice', theme))
      else if (message.source.kind === 'compaction') blocks.push(new LinesBlock([COMPACTED_NOTE], 'notice', theme))
      continue
    }
    if (message.role !== 'assistant') continue
    for (const block of message.content) {
      if (block.type === 'text' && block.text.trim() !== '') blocks.push(new StreamingMarkdown(theme.markdown, block.text))
      if (block.type === 'tool-call') {
        const row = new ToolRow({ callId: block.callId, name: block.name, rawArguments: block.arguments, theme, now })
        row.finish(outcomeOf(results.get(block.callId)), editDiff(block.name, block.arguments, undefined))
        blocks.push(row)
      }
    }
  }
  if (blocks.length > 0) blocks.push(new LinesBlock(['', '── resumed here ──'], 'notice', theme))
  return blocks
}
