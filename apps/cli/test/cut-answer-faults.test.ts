// F4 (issue 22), through the built binary and the testkit's DeepSeek imitation: an answer the
// provider cut short (finish_reason length or content_filter) is never a silent success. `dsh run`
// prints it with a warning naming the finish reason; ACP answers the prompt with the stop reason
// `max_tokens` or `refusal`, not `end_turn`. (insufficient_system_resource is retried: see
// deepseek-e2e.test.ts.)
import { afterEach, describe, expect, it } from 'vitest'
import { startDeepSeekServer, tempTree, type DeepSeekServer, type TempTree } from '@dsh/testkit'
import { spawnAcp, type AcpProcess } from './acp-driver.ts'
import { runDsh } from './run-dsh.ts'

let tree: TempTree
let server: DeepSeekServer | undefined
let acp: AcpProcess | undefined
afterEach(async () => {
  acp?.child.kill()
  await acp?.exited
  acp = undefined
  await server?.close()
  server = undefined
  await tree?.dispose()
})

const key = { DEEPSEEK_API_KEY: 'sk-test-key-1234' }

describe('a cut answer', { timeout: 120_000 }, () => {
  it('F4: dsh run prints it with a warning naming the finish reason', async () => {
    tree = await tempTree({ 'repo/': null })
    server = await startDeepSeekServer({ answers: [{ text: 'filtered hal', finishReason: 'content_filter' }] })
    const cut = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--base-url', server.baseUrl, 'hi'], { cwd: tree.root, env: key })
    expect(cut).toMatchObject({ code: 0, stdout: 'filtered hal\n' })
    expect(cut.stderr).toContain("warning: deepseek: the answer was cut off by the provider's content filter (finish_reason content_filter); it may be incomplete\n")
  })

  it('F4: ACP answers max_tokens for the output limit and refusal for the content filter, end_turn otherwise', async () => {
    tree = await tempTree({ 'repo/': null })
    server = await startDeepSeekServer({
      answers: [{ text: 'half an ans', finishReason: 'length' }, { text: 'filtered', finishReason: 'content_filter' }, { text: 'whole answer' }],
    })
    acp = spawnAcp(['--dsh-home', tree.path('home'), '--base-url', server.baseUrl], { cwd: tree.path('repo'), home: tree.root, env: key })
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('repo'), mcpServers: [] })
    const prompt = (text: string) => acp?.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] })
    expect(await prompt('one')).toEqual({ stopReason: 'max_tokens' })
    expect(await prompt('two')).toEqual({ stopReason: 'refusal' })
    expect(await prompt('three')).toEqual({ stopReason: 'end_turn' })
  })
})
