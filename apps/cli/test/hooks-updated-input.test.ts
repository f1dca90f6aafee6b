// PreToolUse `updatedInput` end to end: real shell hooks (jq) rewrite a call's input through the
// built binary. The call runs with the new input, which is recorded (hooks/input-updated, a
// stream-json line validated against the schema); an input the tool's schema rejects blocks the
// call; a new input the permission policy denies is denied; two hooks that disagree block.
import { afterEach, describe, expect, it } from 'vitest'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import type { ModelScript } from '@dsh/llm-scripted'
import { readRequests, runDsh, writeScript, type RequestBody } from './run-dsh.ts'
import { checkedLines } from './stream-json-check.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

async function workspace() {
  tree = await tempTree({ 'repo/notes.txt': 'alpha\n', 'scripts/': null })
  return { repo: tree.path('repo'), home: tree.path('home'), log: tree.path('requests.jsonl'), config: tree.path('dsh.yaml') }
}

type Workspace = Awaited<ReturnType<typeof workspace>>

/** PreToolUse hook scripts on bash printing what the jq programs make of their stdin; returns their paths. */
function rewriteHooks(w: Workspace, ...programs: string[]): string[] {
  const scripts = programs.map((program, index) => {
    const file = tree.path(`scripts/rewrite-${index}.sh`)
    writeFileSync(file, `#!/bin/sh\njq -c '${program}'\n`)
    chmodSync(file, 0o755)
    return file
  })
  writeFileSync(w.config, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: scripts.map((command) => ({ type: 'command', command })) }] } }))
  return scripts
}

function runWith(w: Workspace, responses: ModelScript['responses'], extra: string[] = []) {
  const script = writeScript(tree.path('scripts'), 'model.json', { responses })
  return runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--config', w.config, '--model', `scripted:${script}`, '--request-log', w.log, '--output-format', 'stream-json', ...extra, 'go'], { cwd: tree.root })
}

const toolTexts = (requests: readonly RequestBody[]): string[] => requests.flatMap((request) => request.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '')).filter((text, index, all) => all.indexOf(text) === index)
const bashCall = (cmd: string) => ({ toolCalls: [{ name: 'bash', arguments: { command: cmd } }] })
const update = (input: string) => `{hookSpecificOutput: {hookEventName: "PreToolUse", updatedInput: ${input}}}`

describe('PreToolUse updatedInput', { timeout: 120_000 }, () => {
  it('the call runs with the new input; the log and the stream say what ran', async () => {
    const w = await workspace()
    const [hook] = rewriteHooks(w, update('{command: (.tool_input.command | sub("hello"; "rewritten"))}'))
    const result = await runWith(w, [bashCall('echo hello > made.txt'), { text: 'ok' }])
    expect(result.code).toBe(0)
    expect(readFileSync(tree.path('repo/made.txt'), 'utf8')).toBe('rewritten\n')
    const lines = checkedLines(result.stdout)
    const call = lines.find((line) => line.type === 'tool/call')
    expect(call?.['data']).toMatchObject({ name: 'bash', arguments: JSON.stringify({ command: 'echo hello > made.txt' }) })
    const updated = lines.find((line) => line.type === 'hooks/input-updated')
    expect(updated?.['data']).toEqual({ callId: 'call_t1s1_1', tool: 'bash', arguments: JSON.stringify({ command: 'echo rewritten > made.txt' }), by: `the PreToolUse hook "${hook}" (${w.config}: PreToolUse[0].hooks[0])` })
    // The permission policy decided again on the new input, after the replacement was recorded.
    const types = lines.map((line) => line.type)
    expect(types.indexOf('hooks/input-updated')).toBeLessThan(types.lastIndexOf('tool/permission'))
    expect(types.indexOf('hooks/input-updated')).toBeLessThan(types.indexOf('tool/result'))
  })

  it('an input the tool does not accept blocks the call with a reason the model reads', async () => {
    const w = await workspace()
    const [hook] = rewriteHooks(w, update('{command: 42}'))
    const result = await runWith(w, [bashCall('echo hello > made.txt'), { text: 'ok' }])
    expect(result.code).toBe(0)
    expect(existsSync(tree.path('repo/made.txt'))).toBe(false)
    expect(toolTexts(readRequests(w.log))).toEqual([
      `The bash call was denied: the PreToolUse hook "${hook}" (${w.config}: PreToolUse[0].hooks[0]) replaced its arguments with ones the tool does not accept (command: Invalid input: expected string, received number). Do not retry it unchanged; choose another approach or ask the user.`,
    ])
    expect(checkedLines(result.stdout).map((line) => line.type)).not.toContain('hooks/input-updated')
  })

  it('a new input that a deny rule covers is denied: a hook cannot rewrite past the policy', async () => {
    const w = await workspace()
    rewriteHooks(w, update('{command: "git push origin main"}'))
    const result = await runWith(w, [bashCall('echo harmless'), { text: 'ok' }], ['--deny', 'bash(git push*)'])
    expect(result.code).toBe(0)
    const texts = toolTexts(readRequests(w.log))
    expect(texts).toHaveLength(1)
    expect(texts[0]).toMatch(/^The bash call was denied: .*bash\(git push\*\)/)
    const lines = checkedLines(result.stdout)
    expect(lines.filter((line) => line.type === 'tool/permission').map((line) => line['data'])).toEqual([expect.objectContaining({ decision: 'allow' }), expect.objectContaining({ decision: 'deny', by: 'rule', rule: 'bash(git push*)' })])
    expect(lines.at(-1)?.['permission_denials']).toEqual([{ tool_name: 'bash', tool_use_id: 'call_t1s1_1', by: 'rule', reason: 'bash(git push*)' }])
  })

  it('two hooks that replace the input differently block the call', async () => {
    const w = await workspace()
    const [one, two] = rewriteHooks(w, update('{command: "echo one > made.txt"}'), update('{command: "echo two > made.txt"}'))
    await runWith(w, [bashCall('echo hello > made.txt'), { text: 'ok' }])
    expect(existsSync(tree.path('repo/made.txt'))).toBe(false)
    expect(toolTexts(readRequests(w.log))).toEqual([
      `The bash call was denied: a PreToolUse hook blocked it: the PreToolUse hook "${one}" (${w.config}: PreToolUse[0].hooks[0]) and the PreToolUse hook "${two}" (${w.config}: PreToolUse[0].hooks[1]) replaced its input in different ways, and dsh cannot choose one. Do not retry it unchanged; choose another approach or ask the user.`,
    ])
  })
})
