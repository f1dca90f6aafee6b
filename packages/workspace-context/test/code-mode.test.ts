// Code Mode end to end: nested read/write/edit inside run_code discover instructions once, and the
// context enters history only after the outer run_code result.
import { afterEach, describe, expect, it } from 'vitest'
import type { ToolDefinition } from '@dsh/contracts'
import { createRunCodeTool } from '@dsh/code-mode'
import { hostFixture, type HostFixture } from './support/host.ts'

let fixture: HostFixture | undefined
afterEach(async () => {
  await fixture?.dispose()
  fixture = undefined
})

describe('Code Mode sub-dispatches', () => {
  it('defers nested discoveries onto the outer result without duplicates', async () => {
    fixture = await hostFixture({ 'repo/.git/HEAD': 'x', 'repo/pkg/AGENTS.md': 'Pkg rules.\n', 'repo/pkg/a.ts': 'a', 'repo/pkg/b.ts': 'b' })
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion, typescript/no-unnecessary-type-assertion
    fixture.host.tools.register(createRunCodeTool({ timeoutMs: 20_000 }) as unknown as ToolDefinition<never>)
    const code = "await tools.read({ file_path: 'pkg/a.ts' }); await tools.read({ file_path: 'pkg/b.ts' }); return 'ok'"
    const agent = await fixture.start({ responses: [{ toolCalls: [{ name: 'run_code', arguments: { code } }] }, { text: 'done' }] })
    await agent.prompt('go')
    const messages = fixture.requests[1]?.messages ?? []
    const added = messages.filter((m) => m.role === 'user' && m.content.includes('Additional instructions from: pkg/AGENTS.md'))
    expect(added).toHaveLength(1)
    expect(messages.at(-2)?.role).toBe('tool')
    expect(messages.at(-1)).toBe(added[0])
  })
})
