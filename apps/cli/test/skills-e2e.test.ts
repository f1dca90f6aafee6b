// Agent Skills and custom commands through the built binary with the scripted model, in temporary
// git repositories: the catalog in the first request after the instruction files, the skill tool's
// result, /command and /skill expansion, an unknown /name (exit 2), nested discovery on touch, a
// resume that repeats nothing, compaction re-arming the catalog, a broken file as one warning line,
// and `dsh skills list|show|trust` and `dsh context`.
import { symlinkSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import type { ModelScript } from '@dsh/llm-scripted'
import { runDshPiped } from './chat-harness.ts'
import { readRequests, runDsh, sessionIdOf, writeScript, type RequestBody } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

const skill = (name: string, description: string, body: string, extra = ''): string => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}`

async function repo(extra: Record<string, string | null> = {}) {
  tree = await tempTree({
    'repo/.git/': null,
    'repo/AGENTS.md': 'Root rule.\n',
    'repo/.dsh/skills/deploy/SKILL.md': skill('deploy', 'Deploy the app.', 'Deploy to $1 with ${SKILL_DIR}/scripts/go.sh.\n'),
    'repo/.dsh/skills/deploy/scripts/go.sh': 'echo go\n',
    'repo/.claude/skills/broken/SKILL.md': '---\nname: broken\n---\nno description\n',
    'repo/.dsh/commands/release.md': '---\ndescription: Cut a release\n---\nRelease version $1 and tag it.\n',
    'repo/pkg/web/.dsh/skills/bundle/SKILL.md': skill('bundle', 'Bundle the web package.', 'Run the bundler.\n'),
    'repo/pkg/web/index.ts': 'export {}\n',
    'scripts/': null,
    'home/': null,
    ...extra,
  })
}

const cli = (...args: string[]) => runDsh(['--dsh-home', tree.path('home'), ...args], { cwd: tree.path('repo') })

let count = 0
async function dsh(script: ModelScript, prompt: string, extra: string[] = []) {
  const file = writeScript(tree.path('scripts'), `s${++count}.json`, script)
  const log = tree.path(`requests-${count}.jsonl`)
  const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${file}`, '--request-log', log, ...extra, prompt], { cwd: tree.root })
  return { ...result, requests: result.code === 0 ? readRequests(log) : [] }
}

const users = (body: RequestBody | undefined) => (body?.messages ?? []).filter((m) => m.role === 'user').map((m) => m.content ?? '')
const catalogs = (body: RequestBody | undefined) => users(body).filter((text) => text.includes('Skills available in this workspace') || text.includes('The skills catalog changed'))

describe('skills end to end', () => {
  it('sends the catalog after the instruction files, answers the skill tool, joins a nested skill on touch, warns once about a broken file', async () => {
    await repo()
    const run = await dsh({ responses: [{ toolCalls: [{ name: 'skill', arguments: { name: 'deploy', arguments: 'staging' } }] }, { toolCalls: [{ name: 'read', arguments: { file_path: 'pkg/web/index.ts' } }] }, { text: 'done' }] }, 'ship it')
    expect(run.code).toBe(0)
    const first = users(run.requests[0])
    expect(first[0]).toBe('ship it')
    expect(first[1]).toContain('Root rule.')
    expect(first[2]).toBe(
      "<system-reminder>\nSkills available in this workspace. A skill is a folder with instructions for one kind of task. When a task matches a skill's description, call the `skill` tool with its name before you start; it returns the instructions and the files in the folder. Folders are relative to the project root unless absolute.\n\n- deploy: Deploy the app. (folder: .dsh/skills/deploy)\n</system-reminder>",
    )
    const tool = run.requests[1]?.messages.find((m) => m.role === 'tool')?.content ?? ''
    expect(tool).toBe(`Skill: deploy\nFolder: ${tree.path('repo/.dsh/skills/deploy')}\nFiles in the folder:\n- SKILL.md\n- scripts/go.sh\n\nDeploy to staging with ${tree.path('repo/.dsh/skills/deploy')}/scripts/go.sh.\n`)
    expect(JSON.stringify(run.requests[0]?.tools)).toContain('"name":"skill"')
    expect(catalogs(run.requests[2])).toEqual([
      first[2],
      '<system-reminder>\nThe skills catalog changed. Skills not named here are unchanged.\n\nNew skills:\n- bundle: Bundle the web package. (folder: pkg/web/.dsh/skills/bundle)\n</system-reminder>',
    ])
    expect(run.stderr.match(/^warning: .*broken.*$/gm)).toEqual([`warning: skill ${tree.path('repo/.claude/skills/broken/SKILL.md')}: missing description; it is not loaded`])
  })

  it('after dsh compact, the next run gets the instructions of the skill the model had called, once; a later resume repeats nothing', async () => {
    await repo()
    const one = await dsh({ responses: [{ toolCalls: [{ name: 'skill', arguments: { name: 'deploy', arguments: 'staging' } }] }, { text: 'deployed' }] }, 'ship it')
    expect(one.code).toBe(0)
    const id = sessionIdOf(one.stderr)
    expect((await runDsh(['--dsh-home', tree.path('home'), 'compact', id], { cwd: tree.root })).code).toBe(0)
    const two = await dsh({ responses: [{ text: 'watching' }] }, 'now watch it', ['--resume', id])
    expect(two.code).toBe(0)
    const inUse = `<system-reminder>\nThe conversation was compacted. You had called these skills before that point, most recent first; their instructions, read again now, still apply where the task needs them (call the \`skill\` tool again for the files in a folder):\n\nSkill: deploy (arguments: staging)\nFolder: .dsh/skills/deploy\n\nDeploy to staging with ${tree.path('repo/.dsh/skills/deploy')}/scripts/go.sh.\n</system-reminder>`
    expect(users(two.requests[0]).at(-1)).toBe(inUse)
    const three = await dsh({ responses: [{ text: 'still' }] }, 'and now', ['--resume', id])
    expect(three.code).toBe(0)
    expect(users(three.requests[0]).filter((text) => text === inUse)).toHaveLength(1)
  })

  it('a skill the person invoked with /name comes back after dsh compact too', async () => {
    await repo()
    const one = await dsh({ responses: [{ text: 'deploying' }] }, '/deploy prod')
    expect(one.code).toBe(0)
    const id = sessionIdOf(one.stderr)
    expect((await runDsh(['--dsh-home', tree.path('home'), 'compact', id], { cwd: tree.root })).code).toBe(0)
    const two = await dsh({ responses: [{ text: 'done' }] }, 'is it done?', ['--resume', id])
    expect(two.code).toBe(0)
    expect(users(two.requests[0]).at(-1)).toContain(`\n\nSkill: deploy (arguments: prod)\nFolder: .dsh/skills/deploy\n\nDeploy to prod with ${tree.path('repo/.dsh/skills/deploy')}/scripts/go.sh.\n</system-reminder>`)
  })

  it('a skill written for a laxer parser (an unquoted ": ") loads with its text and one warning; a YAML tag prints nothing', async () => {
    await repo({ 'repo/.claude/skills/ship/SKILL.md': '---\nname: ship\ndescription: Ship it: tag, push.\n---\nShip $0 to $1 with ${CLAUDE_SKILL_DIR}/ship.sh.\n', 'repo/.claude/skills/tagged/SKILL.md': '---\nname: tagged\ndescription: !weird Tagged.\n---\nTag.\n', 'repo/.claude/commands/tag.md': '---\ndescription: Tag it: now\n---\nTag $1.\n' })
    const run = await dsh({ responses: [{ text: 'ok' }] }, 'hi')
    expect(run.code).toBe(0)
    expect(catalogs(run.requests[0])[0]).toContain('\n- ship: Ship it: tag, push. (folder: .claude/skills/ship)\n- tagged: Tagged. (folder: .claude/skills/tagged)\n')
    expect(run.stderr).not.toContain('YAMLWarning')
    expect(run.stderr.match(/^warning: .*ship.*$/gm)).toEqual([`warning: skill ${tree.path('repo/.claude/skills/ship/SKILL.md')}: unquoted ": " in description (invalid YAML); read as plain text; quote the value so stricter tools load it too`])
    const list = await cli('skills', 'list')
    expect(list.stdout).toContain('  ship  active  project  .claude/skills/ship/SKILL.md  Ship it: tag, push.\n')
    expect(list.stderr).not.toContain('YAMLWarning')
    expect(list.stderr).toContain(`warning: command ${tree.path('repo/.claude/commands/tag.md')}: unquoted ": " in description (invalid YAML); read as plain text; quote the value so stricter tools load it too\n`)
    expect(list.stdout).toMatch(/^ {2}\/tag {2}active {2}project {2}\.claude\/commands\/tag\.md {2}Tag it: now$/m)
    // Claude Code's placeholders: 0-based $0 and ${CLAUDE_SKILL_DIR}.
    const shipped = await dsh({ responses: [{ text: 'shipped' }] }, '/ship v2.1 prod')
    expect(shipped.code).toBe(0)
    expect(users(shipped.requests[0])[0]).toBe(`Ship v2.1 to prod with ${tree.path('repo/.claude/skills/ship')}/ship.sh.\n`)
  })

  it('a resume repeats nothing; compaction re-arms the catalog', async () => {
    await repo()
    const one = await dsh({ responses: [{ text: 'first' }] }, 'hello')
    expect(one.code).toBe(0)
    const id = sessionIdOf(one.stderr)
    const two = await dsh({ responses: [{ text: 'second' }] }, 'again', ['--resume', id])
    expect(two.code).toBe(0)
    expect(catalogs(two.requests[0])).toHaveLength(1)
    const compact = await runDsh(['--dsh-home', tree.path('home'), 'compact', id], { cwd: tree.root })
    expect(compact.code).toBe(0)
    const three = await dsh({ responses: [{ text: 'third' }] }, 'after compaction', ['--resume', id])
    expect(three.code).toBe(0)
    const after = catalogs(three.requests[0])
    expect(after).toHaveLength(1)
    expect(after[0]).toContain('Skills available in this workspace.')
    expect(after[0]).toContain('- deploy: Deploy the app.')
  })

  it('expands /command and /skill prompts; an unknown /name is a usage error naming the known ones', async () => {
    await repo()
    const command = await dsh({ responses: [{ text: 'ok' }] }, '/release 1.2.3')
    expect(command.code).toBe(0)
    expect(users(command.requests[0])[0]).toBe('Release version 1.2.3 and tag it.\n')
    const viaSkill = await dsh({ responses: [{ text: 'ok' }] }, '/deploy production')
    expect(users(viaSkill.requests[0])[0]).toBe(`Deploy to production with ${tree.path('repo/.dsh/skills/deploy')}/scripts/go.sh.\n`)
    const unknown = await dsh({ responses: [{ text: 'never' }] }, '/nope now')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('dsh: unknown command /nope; known: /init, /release, /deploy')
    // dsh's bundled /init asks for the project's AGENTS.md, with the words after it passed on.
    const init = await dsh({ responses: [{ text: 'ok' }] }, '/init tests live in spec/')
    expect(init.code).toBe(0)
    expect(users(init.requests[0])[0]).toMatch(/^Write the AGENTS\.md file of this project: [\s\S]*\n\nARGUMENTS: tests live in spec\/\n$/)
    const json = await dsh({ responses: [{ text: 'ok' }] }, '/release 9', ['--output-format', 'json'])
    expect(json.code).toBe(0)
    expect(users(json.requests[0])[0]).toBe('Release version 9 and tag it.\n')
    const path = await dsh({ responses: [{ text: 'plain' }] }, '/etc/hosts looks wrong')
    expect(path.code).toBe(0)
    expect(users(path.requests[0])[0]).toBe('/etc/hosts looks wrong')
  })

  it('dsh skills list, show, trust and dsh context show the skills', async () => {
    await repo({ 'repo/.agents/skills/deploy/SKILL.md': skill('deploy', 'Loser.', 'x\n'), 'repo/.dsh/skills/ship/SKILL.md': skill('ship', 'Ship it.', 'x\n', 'allowed-tools: Bash\n') })
    const list = await cli('skills', 'list')
    expect(list.code).toBe(0)
    expect(list.stdout).toContain('  deploy  active  project  .dsh/skills/deploy/SKILL.md  Deploy the app.\n')
    expect(list.stdout).toContain('  deploy  shadowed by .dsh/skills/deploy/SKILL.md  project  .agents/skills/deploy/SKILL.md  Loser.\n')
    expect(list.stdout).toContain('  (.claude/skills/broken)  broken: missing description  project  .claude/skills/broken/SKILL.md\n')
    expect(list.stdout).toContain('  ship  untrusted (allowed-tools grant nothing until dsh skills trust)  project  .dsh/skills/ship/SKILL.md  Ship it.\n')
    expect(list.stdout).toContain('  /release  active  project  .dsh/commands/release.md  Cut a release\n')
    const show = await cli('skills', 'show', 'deploy')
    expect(show.stdout).toContain('deploy: active\nscope: project\n')
    expect(show.stdout).toContain('Deploy to $1 with ${SKILL_DIR}/scripts/go.sh.')
    expect((await cli('skills', 'show', 'nope')).code).toBe(2)
    const trust = await cli('skills', 'trust')
    expect(trust.code).toBe(0)
    expect(trust.stdout).toContain('(with allowed-tools: ship); a changed file is untrusted again')
    expect((await cli('skills', 'list')).stdout).toContain('  ship  active  project')
    const context = await cli('context')
    expect(context.stdout).toContain('Skills (the catalog of a new session here; dsh skills list has details):\n  deploy  active  .dsh/skills/deploy/SKILL.md')
    const why = await cli('context', 'why', 'pkg/web/index.ts')
    expect(why.stdout).toContain('  bundle  active  pkg/web/.dsh/skills/bundle/SKILL.md  (joins the first time the agent reads, writes or edits something in pkg/web)')
  })

  it("reads Claude Code's personal skills and commands from ~/.claude; a home that is the project lists its folders once", async () => {
    await repo({
      'me/.claude/skills/mine/SKILL.md': skill('mine', 'A personal skill.', 'Mine: $ARGUMENTS\n'),
      'me/.claude/commands/ops/deploy.md': '---\ndescription: Deploy ops\n---\nDeploy the ops stack to $1.\n',
      'repo/.claude/commands/tag.md': 'Tag $1.\n',
    })
    const file = writeScript(tree.path('scripts'), 'home.json', { responses: [{ text: 'done' }] })
    const log = tree.path('home-requests.jsonl')
    const run = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${file}`, '--request-log', log, '/ops:deploy prod'], { cwd: tree.root, env: { HOME: tree.path('me') } })
    expect(run.code).toBe(0)
    const first = users(readRequests(log)[0])
    expect(first[0]).toBe('Deploy the ops stack to prod.\n')
    expect(catalogs(readRequests(log)[0])[0]).toContain(`- mine: A personal skill. (folder: ${tree.path('me/.claude/skills/mine')})\n`)
    const list = await runDsh(['--dsh-home', tree.path('home'), 'skills', 'list'], { cwd: tree.path('repo'), env: { HOME: tree.path('me') } })
    expect(list.stdout).toContain(`  mine  active  user  ${tree.path('me/.claude/skills/mine/SKILL.md')}  A personal skill.\n`)
    expect(list.stdout).toContain(`  /ops:deploy  active  user  ${tree.path('me/.claude/commands/ops/deploy.md')}  Deploy ops\n`)
    // HOME is the project root: its .claude folders are the project's, each entry once.
    const inHome = await runDsh(['--dsh-home', tree.path('home'), 'skills', 'list'], { cwd: tree.path('repo'), env: { HOME: tree.path('repo') } })
    expect(inHome.code).toBe(0)
    expect(inHome.stdout.split('\n').filter((line) => line.includes('.claude/skills/broken/SKILL.md'))).toEqual(['  (.claude/skills/broken)  broken: missing description  project  .claude/skills/broken/SKILL.md'])
    expect(inHome.stdout.split('\n').filter((line) => line.includes('/tag'))).toEqual(['  /tag  active  project  .claude/commands/tag.md'])
  })

  it('a project command linked into $DSH_HOME outside its commands folder is refused; one linked to a user command loads', async () => {
    await repo({ 'home/commands/mine.md': 'Mine $1.\n', 'home/secret.md': 'token=abc\n', 'repo/.claude/commands/': null })
    symlinkSync(tree.path('home/secret.md'), tree.path('repo/.claude/commands/peek.md'))
    symlinkSync(tree.path('home/commands/mine.md'), tree.path('repo/.claude/commands/ours.md'))
    const list = await cli('skills', 'list')
    expect(list.stdout).toContain('  /ours  active  project  .claude/commands/ours.md\n')
    expect(list.stdout).not.toContain('/peek')
    expect(list.stderr).toContain(`warning: command ${tree.path('repo/.claude/commands/peek.md')}: links outside the trusted roots (${tree.path('home/secret.md')}); it is not loaded\n`)
    const run = await dsh({ responses: [{ text: 'never' }] }, '/peek now')
    expect(run.code).toBe(2)
    expect(run.stdout).not.toContain('token=abc')
    expect(run.stderr).not.toContain('token=abc')
  })

  it('dsh chat expands /command and /skill lines, keeps built-ins, and lists them with /skills', async () => {
    await repo({ 'repo/.dsh/commands/compact.md': 'Never sent.\n' })
    const script = writeScript(tree.path('scripts'), 'chat.json', { responses: [{ text: 'released' }, { text: 'deployed' }] })
    const log = tree.path('chat-requests.jsonl')
    const input = '/release 2.0\n/deploy qa\n/skills\n/exit\n'
    const result = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log], input, { cwd: tree.root })
    expect(result.code).toBe(0)
    const requests = readRequests(log)
    expect(users(requests[0])[0]).toBe('Release version 2.0 and tag it.\n')
    expect(users(requests[1]).at(-1)).toBe(`Deploy to qa with ${tree.path('repo/.dsh/skills/deploy')}/scripts/go.sh.\n`)
    expect(result.stdout).toContain('  /release  active  project  .dsh/commands/release.md  Cut a release\n')
    expect(result.stdout).toContain(`  /compact  shadowed by the built-in /compact  ${tree.path('repo/.dsh/commands/compact.md')}\n`)
  })
})
