// Discovery over real temp trees: where skills come from, precedence and the shadowed loser,
// nested qualification, format validation (one problem per broken file, the others still load),
// unknown front matter fields kept, links only into trusted roots, trust by digest, hostile files
// (FIFO, directory, binary, invalid UTF-8, oversize). Every case runs twice: with the port's batched
// small-file reads, and through a port without them (one probe and read per file).
import { execFileSync } from 'node:child_process'
import { symlinkSync, writeFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { FileSystemPort } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { tempTree, type TempTree, type TreeSpec } from '@dsh/testkit'
import { catalogItems, discoverSkills, formatSkillList, readSkillMeta, readTrust, writeTrust, type SkillSet } from '../src/index.ts'
import { skillFile } from './support/rig.ts'

let tree: TempTree
let made = false
let batched = true

/** The local port, or the same port without `readSmallTexts` (the one-by-one path). */
function port(): FileSystemPort {
  const local = createLocalFileSystem({ writableRoots: [] })
  if (batched) return local
  const plain: FileSystemPort = { ...local }
  delete plain.readSmallTexts
  return plain
}
afterEach(async () => {
  await tree?.dispose()
  made = false
})

function trustOf(dshHome: string) {
  const read = readTrust(dshHome)
  return read.ok ? read.projects : {}
}

async function discover(spec: TreeSpec, cwd = 'repo', extra: { nestedDirs?: string[]; trust?: boolean } = {}): Promise<SkillSet> {
  if (!made) tree = await tempTree({ 'home/': null, 'os-home/': null, ...spec })
  made = true
  const dshHome = tree.path('home')
  return discoverSkills({
    fs: port(),
    cwd: tree.path(cwd),
    dshHome,
    home: tree.path('os-home'),
    nestedDirs: (extra.nestedDirs ?? []).map((dir) => tree.path(dir)),
    ...(extra.trust === true ? { trust: trustOf(dshHome) } : {}),
  })
}

const summary = (set: SkillSet) => set.entries.map((entry) => `${entry.key} ${entry.state} ${entry.skill.file.replace(`${tree.root}/`, '')}${entry.shadowedBy === undefined ? '' : ` < ${entry.shadowedBy.replace(`${tree.root}/`, '')}`}`)

describe.each([
  ['batched reads', true],
  ['one read per file', false],
])('skill discovery (%s)', (_label, batchedReads) => {
  beforeEach(() => {
    batched = batchedReads
  })

  it('finds every source and applies precedence: specific directory, project over user, .dsh > .agents > .claude', async () => {
    const set = await discover({
      'repo/.git/': null,
      'repo/.claude/skills/deploy/SKILL.md': skillFile('deploy', 'root claude'),
      'repo/.agents/skills/deploy/SKILL.md': skillFile('deploy', 'root agents'),
      'repo/.dsh/skills/lint/SKILL.md': skillFile('lint', 'root dsh lint'),
      'repo/.agents/skills/lint/SKILL.md': skillFile('lint', 'root agents lint'),
      'repo/app/.claude/skills/deploy/SKILL.md': skillFile('deploy', 'app claude'),
      'home/skills/lint/SKILL.md': skillFile('lint', 'user lint'),
      'home/skills/notes/SKILL.md': skillFile('notes', 'user notes'),
      'os-home/.agents/skills/notes/SKILL.md': skillFile('notes', 'os-home notes'),
      'os-home/.agents/skills/todo/SKILL.md': skillFile('todo', 'os-home todo'),
      'os-home/.claude/skills/todo/SKILL.md': skillFile('todo', 'os-home claude todo'),
      'os-home/.claude/skills/review/SKILL.md': skillFile('review', 'os-home claude review'),
    }, 'repo/app')
    expect([...set.skills.keys()]).toEqual(['deploy', 'lint', 'notes', 'todo', 'review'])
    expect(set.skills.get('review')).toMatchObject({ file: tree.path('os-home/.claude/skills/review/SKILL.md'), source: { scope: 'user', family: '.claude' } })
    expect(set.skills.get('deploy')?.meta.description).toBe('app claude')
    expect(set.skills.get('lint')?.meta.description).toBe('root dsh lint')
    expect(set.skills.get('notes')?.meta.description).toBe('user notes')
    expect(summary(set).filter((line) => line.includes('shadowed'))).toEqual([
      'deploy shadowed repo/.agents/skills/deploy/SKILL.md < repo/app/.claude/skills/deploy/SKILL.md',
      'lint shadowed repo/.agents/skills/lint/SKILL.md < repo/.dsh/skills/lint/SKILL.md',
      'deploy shadowed repo/.claude/skills/deploy/SKILL.md < repo/app/.claude/skills/deploy/SKILL.md',
      'lint shadowed home/skills/lint/SKILL.md < repo/.dsh/skills/lint/SKILL.md',
      'notes shadowed os-home/.agents/skills/notes/SKILL.md < home/skills/notes/SKILL.md',
      'todo shadowed os-home/.claude/skills/todo/SKILL.md < os-home/.agents/skills/todo/SKILL.md',
    ])
    expect(formatSkillList(set, [])).toContain('deploy  shadowed by app/.claude/skills/deploy/SKILL.md  project  .agents/skills/deploy/SKILL.md  root agents')
  })

  it('qualifies a nested skill whose name is taken, keeps a unique one plain', async () => {
    const set = await discover(
      {
        'repo/.git/': null,
        'repo/.dsh/skills/deploy/SKILL.md': skillFile('deploy', 'root'),
        'repo/pkg/web/.dsh/skills/deploy/SKILL.md': skillFile('deploy', 'web'),
        'repo/pkg/web/.agents/skills/bundle/SKILL.md': skillFile('bundle', 'web bundle'),
      },
      'repo',
      { nestedDirs: ['repo/pkg', 'repo/pkg/web'] },
    )
    expect([...set.skills.keys()]).toEqual(['deploy', 'pkg/web:deploy', 'bundle'])
    expect(set.skills.get('pkg/web:deploy')?.meta.description).toBe('web')
  })

  it('reports each broken file in one line and loads every other skill, one with an unquoted colon too', async () => {
    const set = await discover({
      'repo/.git/': null,
      'repo/.dsh/skills/yaml/SKILL.md': '---\nname: yaml\ndescription: [unclosed\n---\nx\n',
      'repo/.dsh/skills/nodesc/SKILL.md': '---\nname: nodesc\n---\nx\n',
      'repo/.dsh/skills/other/SKILL.md': skillFile('mismatch', 'd'),
      'repo/.dsh/skills/Bad_Name/SKILL.md': skillFile('Bad_Name', 'd'),
      'repo/.dsh/skills/plain/SKILL.md': 'no front matter\n',
      'repo/.dsh/skills/long/SKILL.md': skillFile('long', 'x'.repeat(1025)),
      'repo/.dsh/skills/empty-folder/': null,
      'repo/.dsh/skills/good/SKILL.md': skillFile('good', 'Works.', 'Body.\n', 'allowed-tools: Bash(git add:*), Read\nmodel: opus\nx-unknown: [1, 2]\n'),
      'repo/.dsh/skills/colon/SKILL.md': '---\nname: colon\ndescription: Use when: the user says ship it\n---\nx\n',
    })
    expect([...set.skills.keys()]).toEqual(['colon', 'good'])
    expect(set.skills.get('colon')?.meta.description).toBe('Use when: the user says ship it')
    const lines = set.problems.map((line) => line.replace(`${tree.root}/`, ''))
    expect(lines).toHaveLength(7)
    expect(lines).toContain('skill repo/.dsh/skills/colon/SKILL.md: unquoted ": " in description (invalid YAML); read as plain text; quote the value so stricter tools load it too')
    expect(lines).toContain('skill repo/.dsh/skills/nodesc/SKILL.md: missing description; it is not loaded')
    expect(lines).toContain('skill repo/.dsh/skills/other/SKILL.md: name "mismatch" does not match its folder "other"; it is not loaded')
    expect(lines).toContain('skill repo/.dsh/skills/Bad_Name/SKILL.md: name "Bad_Name" is not lowercase words joined by single hyphens; it is not loaded')
    expect(lines).toContain('skill repo/.dsh/skills/plain/SKILL.md: no front matter (a --- block with name and description); it is not loaded')
    expect(lines).toContain('skill repo/.dsh/skills/long/SKILL.md: description is longer than 1024 characters; it is not loaded')
    expect(lines.find((line) => line.includes('/yaml/'))).toMatch(/^skill repo\/\.dsh\/skills\/yaml\/SKILL\.md: bad YAML in front matter: .+; it is not loaded$/)
    const good = set.skills.get('good')
    expect(good?.meta.allowedTools).toEqual(['Bash(git add:*)', 'Read'])
    expect(good?.meta.extra['model']).toBe('opus')
    expect(good?.body).toBe('Body.\n')
  })

  it('follows a link into the project, refuses one leading outside the trusted roots', async () => {
    tree = await tempTree({ 'home/': null, 'os-home/': null, 'repo/.git/': null, 'repo/shared/inside/SKILL.md': skillFile('inside', 'in'), 'outside/SKILL.md': skillFile('escape', 'out') })
    made = true
    await import('node:fs/promises').then((fs) => fs.mkdir(tree.path('repo/.dsh/skills'), { recursive: true }))
    symlinkSync(tree.path('repo/shared/inside'), tree.path('repo/.dsh/skills/inside'))
    symlinkSync(tree.path('outside'), tree.path('repo/.dsh/skills/escape'))
    const set = await discover({})
    expect([...set.skills.keys()]).toEqual(['inside'])
    expect(set.problems.map((line) => line.replaceAll(tree.root, '<T>'))).toEqual([`skill <T>/repo/.dsh/skills/escape/SKILL.md: links outside the trusted roots (<T>/outside/SKILL.md); it is not loaded`])
  })

  it('follows a link into ~/.claude/skills, never into the rest of ~/.claude', async () => {
    tree = await tempTree({ 'home/': null, 'os-home/.claude/skills/shared/SKILL.md': skillFile('shared', 'personal'), 'os-home/.claude/secret/SKILL.md': skillFile('secret', 'token=abc'), 'repo/.git/': null, 'repo/.dsh/skills/': null })
    made = true
    symlinkSync(tree.path('os-home/.claude/skills/shared'), tree.path('repo/.dsh/skills/shared'))
    symlinkSync(tree.path('os-home/.claude/secret'), tree.path('repo/.dsh/skills/secret'))
    const set = await discover({})
    expect(set.skills.get('shared')?.meta.description).toBe('personal')
    expect(set.skills.has('secret')).toBe(false)
    expect(set.problems.map((line) => line.replaceAll(tree.root, '<T>'))).toEqual([`skill <T>/repo/.dsh/skills/secret/SKILL.md: links outside the trusted roots (<T>/os-home/.claude/secret/SKILL.md); it is not loaded`])
  })

  it('follows a link into $DSH_HOME/skills, never into the rest of $DSH_HOME (sessions, trust store)', async () => {
    tree = await tempTree({ 'home/skills/mine/SKILL.md': skillFile('mine', 'user'), 'home/sessions/peek/SKILL.md': skillFile('peek', 'from a session folder'), 'os-home/': null, 'repo/.git/': null, 'repo/.dsh/skills/': null })
    made = true
    symlinkSync(tree.path('home/skills/mine'), tree.path('repo/.dsh/skills/mine'))
    symlinkSync(tree.path('home/sessions/peek'), tree.path('repo/.dsh/skills/peek'))
    const set = await discover({})
    expect(set.skills.get('mine')?.file).toBe(tree.path('repo/.dsh/skills/mine/SKILL.md'))
    expect(set.skills.has('peek')).toBe(false)
    expect(set.problems.map((line) => line.replaceAll(tree.root, '<T>'))).toEqual([`skill <T>/repo/.dsh/skills/peek/SKILL.md: links outside the trusted roots (<T>/home/sessions/peek/SKILL.md); it is not loaded`])
  })

  it('a linked skills directory: its plain folders load when it leads into the project, and are refused when it leads outside', async () => {
    tree = await tempTree({ 'home/': null, 'os-home/': null, 'repo/.git/': null, 'repo/shared/skills/kept/SKILL.md': skillFile('kept', 'in'), 'repo/.agents/': null, 'repo/.dsh/': null, 'outside/skills/stray/SKILL.md': skillFile('stray', 'out') })
    made = true
    symlinkSync(tree.path('repo/shared/skills'), tree.path('repo/.dsh/skills'))
    symlinkSync(tree.path('outside/skills'), tree.path('repo/.agents/skills'))
    const set = await discover({})
    expect([...set.skills.keys()]).toEqual(['kept'])
    expect(set.skills.get('kept')?.file).toBe(tree.path('repo/.dsh/skills/kept/SKILL.md'))
    expect(set.problems.map((line) => line.replaceAll(tree.root, '<T>'))).toEqual([`skill <T>/repo/.agents/skills/stray/SKILL.md: links outside the trusted roots (<T>/outside/skills/stray/SKILL.md); it is not loaded`])
  })

  it('a project skill with allowed-tools is untrusted until its digest is recorded; a change untrusts it again', async () => {
    const spec = { 'repo/.git/': null, 'repo/.dsh/skills/ship/SKILL.md': skillFile('ship', 'Ship.', 'x\n', 'allowed-tools: Bash\n'), 'repo/.dsh/skills/plain/SKILL.md': skillFile('plain', 'Plain.') }
    const before = await discover(spec, 'repo', { trust: true })
    expect(summary(before).map((line) => line.split(' ').slice(0, 2).join(' '))).toEqual(['plain active', 'ship untrusted'])
    const ship = before.skills.get('ship')
    if (ship === undefined) throw new Error('ship not found')
    writeTrust(tree.path('home'), before.projectRoot, { [ship.file]: ship.digest })
    expect((await discover({}, 'repo', { trust: true })).entries.map((entry) => entry.state)).toEqual(['active', 'active'])
    await import('node:fs/promises').then((fs) => fs.appendFile(ship.file, 'more\n'))
    expect((await discover({}, 'repo', { trust: true })).entries.map((entry) => entry.state)).toEqual(['active', 'untrusted'])
  })

  it('keeps a directory name with a line break on its catalog line', async () => {
    const set = await discover({ 'repo/.git/': null, 'repo/.dsh/skills/deploy/SKILL.md': skillFile('deploy', 'root'), 'repo/x\n- fake: evil/.dsh/skills/deploy/SKILL.md': skillFile('deploy', 'nested') }, 'repo', { nestedDirs: ['repo/x\n- fake: evil'] })
    const lines = catalogItems(set).map((item) => item.line)
    expect(lines).toEqual(['- deploy: root (folder: .dsh/skills/deploy)', '- x - fake: evil:deploy: nested (folder: x - fake: evil/.dsh/skills/deploy)'])
  })

  it('front matter: CRLF, a BOM and numbers are accepted', () => {
    expect(readSkillMeta('\uFEFF---\r\nname: a1\r\ndescription: 42\r\n---\r\nbody\r\n', 'a1')).toMatchObject({ ok: true, meta: { name: 'a1', description: '42' }, body: 'body\r\n' })
  })

  it('hostile SKILL.md files: a FIFO and a directory are no skill (and nothing blocks); binary, non-UTF-8 and oversize files are broken', async () => {
    await discover({
      'repo/.git/': null,
      'repo/.dsh/skills/fifo/': null,
      'repo/.dsh/skills/dir/SKILL.md/': null,
      'repo/.dsh/skills/good/SKILL.md': skillFile('good', 'Works.'),
    })
    execFileSync('mkfifo', [tree.path('repo/.dsh/skills/fifo/SKILL.md')])
    for (const name of ['binary', 'latin1', 'huge']) await import('node:fs/promises').then((fs) => fs.mkdir(tree.path(`repo/.dsh/skills/${name}`)))
    writeFileSync(tree.path('repo/.dsh/skills/binary/SKILL.md'), `${skillFile('binary', 'b')}\u0000\n`)
    writeFileSync(tree.path('repo/.dsh/skills/latin1/SKILL.md'), Buffer.from('---\nname: latin1\ndescription: caf\xe9\n---\n', 'latin1'))
    writeFileSync(tree.path('repo/.dsh/skills/huge/SKILL.md'), skillFile('huge', 'h', 'x'.repeat(300 * 1024)))
    const set = await discover({})
    expect([...set.skills.keys()]).toEqual(['good'])
    expect(set.problems.map((line) => line.replace(`${tree.root}/`, '')).toSorted()).toEqual([
      'skill repo/.dsh/skills/binary/SKILL.md: contains NUL bytes; it is not loaded',
      'skill repo/.dsh/skills/huge/SKILL.md: is larger than the skill size limit (307234 bytes); it is not loaded',
      'skill repo/.dsh/skills/latin1/SKILL.md: is not UTF-8 text; it is not loaded',
    ])
  })
})
