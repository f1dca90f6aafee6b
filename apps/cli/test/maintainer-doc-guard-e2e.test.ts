// maintainer-doc-guard through the built binary: a guarded edit without a precedent is denied
// with the candidate list in the next request and succeeds after one was read; with the guard
// off (the default) every request is byte-identical to a composition without it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import type { ModelScript } from '@dsh/llm-scripted'
import { readRequests, runDsh, writeScript } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

async function workspace() {
  tree = await tempTree({
    'repo/.git/': null,
    'repo/.dsh/skills/alpha/SKILL.md': '# alpha\nname: alpha\n',
    'repo/.dsh/skills/beta/SKILL.md': '# beta\nname: beta\n',
    'repo/.dsh-maintainer-doc-guard/plan.md': 'Rename the beta skill only.\n',
    'scripts/': null,
  })
}

let count = 0
async function dsh(script: ModelScript, prompt: string, config?: string) {
  count += 1
  const file = writeScript(tree.path('scripts'), `s${count}.json`, script)
  const log = tree.path(`requests-${count}.jsonl`)
  const configArgs = config === undefined ? [] : ['--config', writeConfig(`c${count}.yaml`, config)]
  // .dsh/ is protected (issue 19): dsh run changes the skills there only under a rule naming them.
  const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--allow', 'edit(.dsh/skills/**)', '--model', `scripted:${file}`, '--request-log', log, ...configArgs, prompt], { cwd: tree.root })
  return { ...result, log, requests: existsSync(log) ? readRequests(log) : [] }
}

function writeConfig(name: string, text: string): string {
  const file = tree.path(`scripts/${name}`)
  writeFileSync(file, text)
  return file
}

const edit = {
  text: 'I will edit the beta SKILL.md to rename the skill.',
  toolCalls: [{ name: 'edit', arguments: { file_path: '.dsh/skills/beta/SKILL.md', old_string: 'name: beta', new_string: 'name: beta-two' } }],
}
const script: ModelScript = { responses: [edit, { toolCalls: [{ name: 'read', arguments: { file_path: '.dsh/skills/alpha/SKILL.md' } }] }, edit, { text: 'Renamed.' }] }

describe('maintainer-doc-guard end to end', () => {
  it('denies a guarded edit with the candidates in the next request, then lets it through after a read', async () => {
    await workspace()
    const run = await dsh(script, 'rename the beta skill', 'maintainerDocGuard:\n  enabled: true\n')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('Renamed.\n')
    const tools = (index: number) => (run.requests[index]?.messages ?? []).filter((message) => message.role === 'tool').map((message) => message.content)
    expect(tools(1)[0]).toContain('Blocked by maintainer-doc-guard: you are about to edit ".dsh/skills/beta/SKILL.md"')
    expect(tools(1)[0]).toContain('Read one of these first, then retry:\n\n- .dsh/skills/beta/SKILL.md\n- .dsh/skills/alpha/SKILL.md\n')
    expect(tools(3)[2]).toBe('Edited .dsh/skills/beta/SKILL.md: replaced 1 occurrence.')
    expect(readFileSync(tree.path('repo/.dsh/skills/beta/SKILL.md'), 'utf8')).toBe('# beta\nname: beta-two\n')
    // The reminder and the anchor travel as user-role messages after the prompt; the system prompt stays fixed.
    const users = (run.requests[0]?.messages ?? []).filter((message) => message.role === 'user').map((message) => message.content ?? '')
    expect(users.some((text) => text.includes('--- begin .dsh-maintainer-doc-guard/plan.md ---\nRename the beta skill only.\n'))).toBe(true)
    expect(users.some((text) => text.startsWith("## Current objective — the user's latest instruction\n\n> rename the beta skill\n"))).toBe(true)
    expect(run.requests[0]?.messages[0]?.content).not.toContain('Current objective')
    expect(run.requests.map((request) => request.messages[0]?.content)).toEqual(run.requests.map(() => run.requests[0]?.messages[0]?.content))
  })

  it('sends byte-identical requests with the guard off', async () => {
    await workspace()
    const plain = await dsh(script, 'rename the beta skill')
    const off = await dsh(script, 'rename the beta skill', 'maintainerDocGuard:\n  enabled: false\n  gate:\n    maxDeniesPerTarget: 1\n  anchor:\n    delivery: message\n')
    const missing = await dsh(script, 'rename the beta skill', 'workspaceContext:\n  maxBytes: 65536\n')
    expect(plain.code).toBe(0)
    expect(plain.requests).toHaveLength(4)
    expect(readFileSync(off.log, 'utf8')).toBe(readFileSync(plain.log, 'utf8'))
    expect(readFileSync(missing.log, 'utf8')).toBe(readFileSync(plain.log, 'utf8'))
    expect(readFileSync(plain.log, 'utf8')).not.toContain('maintainer-doc-guard')
  })

  it('names an unknown option of the section in one line', async () => {
    await workspace()
    const run = await dsh(script, 'x', 'maintainerDocGuard:\n  enabled: true\n  gate:\n    maxDenies: 3\n')
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^dsh: .*c\d+\.yaml: maintainerDocGuard\.gate\.maxDenies: unknown key\n$/u)
  })
})
