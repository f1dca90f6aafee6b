// `allowed-tools` of skills through the built binary, in `dsh run --permission-mode ask` (where a
// call that would ask is refused): a trusted skill's rules let its calls through until the turn
// ends, nothing else; an untrusted project skill grants nothing and says so; a deny rule still wins;
// the next turn (a resume) has no grant; a user skill is trusted without `dsh skills trust`.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import type { ModelScript } from '@dsh/llm-scripted'
import { runDshPiped } from './chat-harness.ts'
import { readRequests, runDsh, sessionIdOf, writeScript } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

const skill = (name: string, tools: string): string => `---\nname: ${name}\ndescription: Ship the app.\nallowed-tools: ${tools}\n---\nRun the release script.\n`

async function repo(files: Record<string, string | null>) {
  tree = await tempTree({ 'repo/.git/': null, 'repo/AGENTS.md': 'Root rule.\n', 'scripts/': null, 'home/': null, ...files })
}

let count = 0
async function dsh(script: ModelScript, prompt: string, extra: string[] = []) {
  const file = writeScript(tree.path('scripts'), `s${++count}.json`, script)
  const log = tree.path(`requests-${count}.jsonl`)
  const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--permission-mode', 'ask', '--model', `scripted:${file}`, '--request-log', log, ...extra, prompt], { cwd: tree.root })
  return { ...result, requests: readRequests(log) }
}

/** Every tool message the model was sent, in order. */
const toolTexts = (run: Awaited<ReturnType<typeof dsh>>): string[] => (run.requests.at(-1)?.messages ?? []).filter((m) => m.role === 'tool').map((m) => m.content ?? '')

const calls: ModelScript = {
  responses: [
    { toolCalls: [{ name: 'skill', arguments: { name: 'ship' } }] },
    { toolCalls: [{ name: 'bash', arguments: { command: 'echo granted-call' } }] },
    { toolCalls: [{ name: 'bash', arguments: { command: 'echo other-call' } }] },
    { text: 'done' },
  ],
}

describe('skills allowed-tools', () => {
  it('a trusted project skill lets its calls through until the turn ends; other calls and the next turn ask as before', async () => {
    await repo({ 'repo/.dsh/skills/ship/SKILL.md': skill('ship', 'Bash(echo granted-call:*), WebFetch') })
    const trust = await runDsh(['--dsh-home', tree.path('home'), 'skills', 'trust'], { cwd: tree.path('repo') })
    expect(trust.code).toBe(0)
    const run = await dsh(calls, 'ship it')
    expect(run.code).toBe(0)
    const [skillText, granted, other] = toolTexts(run)
    expect(skillText).toContain('\nAllowed tools until the end of this turn, without a question: bash(echo granted-call:*) (WebFetch: no such dsh tool, not granted)\n')
    expect(granted).toContain('granted-call\n')
    expect(granted).not.toContain('was denied')
    expect(other).toMatch(/^The bash call was denied: permission mode ask needs/)
    const id = sessionIdOf(run.stderr)
    const again = await dsh({ responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'echo granted-call' } }] }, { text: 'done' }] }, 'again', ['--resume', id])
    expect(again.code).toBe(0)
    expect(toolTexts(again).at(-1)).toMatch(/^The bash call was denied: permission mode ask needs/)
    const sessions = tree.path('home/sessions')
    const log = readdirSync(sessions, { recursive: true }).map(String).find((name) => name.includes(id) && name.endsWith('.jsonl'))
    expect(log).toBeDefined()
    const grants = readFileSync(join(sessions, log ?? ''), 'utf8').split('\n').filter((line) => line.includes('"skills/grant"'))
    expect(grants).toHaveLength(1)
    expect(JSON.parse(grants[0] ?? '{}').data).toEqual({ skill: 'ship', file: tree.path('repo/.dsh/skills/ship/SKILL.md'), rules: ['bash(echo granted-call:*)'], scope: 'turn' })
  })

  it('an untrusted project skill grants nothing and says how to trust it; a deny rule wins over a grant', async () => {
    await repo({ 'repo/.dsh/skills/ship/SKILL.md': skill('ship', 'Bash(echo granted-call:*)') })
    const run = await dsh(calls, 'ship it')
    expect(run.code).toBe(0)
    const [skillText, granted] = toolTexts(run)
    expect(skillText).toContain("\nAllowed tools: none granted, the project's skills are not trusted (the user can run `dsh skills trust`); calls ask as usual\n")
    expect(granted).toMatch(/^The bash call was denied: permission mode ask needs/)
    await runDsh(['--dsh-home', tree.path('home'), 'skills', 'trust'], { cwd: tree.path('repo') })
    const denied = await dsh(calls, 'ship it', ['--deny', 'bash(echo granted*)'])
    expect(toolTexts(denied)[1]).toMatch(/^The bash call was denied: the permission rule "bash\(echo granted\*\)" denies it/)
  })

  it('/ship in dsh run and in dsh chat grants for the turn the prompt starts', async () => {
    await repo({ 'repo/.dsh/skills/ship/SKILL.md': skill('ship', 'Bash(echo granted-call:*)') })
    await runDsh(['--dsh-home', tree.path('home'), 'skills', 'trust'], { cwd: tree.path('repo') })
    const bashCalls: ModelScript = { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'echo granted-call' } }] }, { toolCalls: [{ name: 'bash', arguments: { command: 'echo other-call' } }] }, { text: 'done' }] }
    const run = await dsh(bashCalls, '/ship now')
    expect(run.code).toBe(0)
    const [granted, other] = toolTexts(run)
    expect(granted).toContain('granted-call\n')
    expect(granted).not.toContain('was denied')
    expect(other).toMatch(/^The bash call was denied: permission mode ask needs/)
    const script = writeScript(tree.path('scripts'), 'chat.json', bashCalls)
    const log = tree.path('chat-requests.jsonl')
    const chat = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo'), '--permission-mode', 'ask', '--model', `scripted:${script}`, '--request-log', log], '/ship now\n', { cwd: tree.root })
    expect(chat.code).toBe(0)
    const tools = (readRequests(log).at(-1)?.messages ?? []).filter((m) => m.role === 'tool').map((m) => m.content ?? '')
    expect(tools[0]).toContain('granted-call\n')
    expect(tools[0]).not.toContain('was denied')
    expect(tools[1]).toMatch(/^The bash call was not approved/)
  })

  it('a user skill is trusted without dsh skills trust', async () => {
    await repo({ 'home/skills/ship/SKILL.md': skill('ship', 'Bash(echo granted-call:*)') })
    const run = await dsh(calls, 'ship it')
    expect(run.code).toBe(0)
    const [skillText, granted, other] = toolTexts(run)
    expect(skillText).toContain('Allowed tools until the end of this turn, without a question: bash(echo granted-call:*)\n')
    expect(granted).toContain('granted-call\n')
    expect(granted).not.toContain('was denied')
    expect(other).toMatch(/^The bash call was denied: permission mode ask needs/)
  })
})
