// A resumed conversation on screen: prompts, answers, tool rows with their summaries, and an
// edit's diff as it showed live; injected context stays hidden.
import { describe, expect, it } from 'vitest'
import type { Message } from '@dsh/contracts'
import { replayBlocks } from '../src/screen/replay-blocks.ts'
import { createTheme } from '../src/theme.ts'

const theme = createTheme({ color: false, attributes: false })

describe('replayed conversation', () => {
  it('shows the prompt, the tool rows (an edit with its diff) and the answer, not the injected instructions', () => {
    const messages: Message[] = [
      { id: 'u1', role: 'user', content: [{ type: 'text', text: 'rename beta' }], source: { kind: 'user' } },
      { id: 'i1', role: 'user', content: [{ type: 'text', text: 'project rules' }], source: { kind: 'workspace-instructions', version: 1, plugin: 'workspace-context', baseline: true, changes: [] } },
      { id: 'a1', role: 'assistant', content: [{ type: 'tool-call', callId: 'c1', name: 'edit', arguments: JSON.stringify({ file_path: 'notes.txt', old_string: 'beta', new_string: 'gamma' }) }], source: { kind: 'model' } },
      { id: 't1', role: 'tool', callId: 'c1', toolName: 'edit', isError: false, content: [{ type: 'text', text: 'Edited notes.txt: replaced 1 occurrence.' }], source: { kind: 'tool' } },
      { id: 'a2', role: 'assistant', content: [{ type: 'text', text: 'Renamed.' }], source: { kind: 'model' } },
    ]
    const lines = replayBlocks(messages, theme, () => 0).flatMap((block) => block.render(80))
    expect(lines.map((line) => line.trimEnd())).toEqual(['', '› rename beta', '✓ edit notes.txt  ok: Edited notes.txt: replaced 1 occurrence.', '    -beta', '    +gamma', 'Renamed.', '', '── resumed here ──'])
  })
})
