// Shell write and read detection from the command text, POSIX and PowerShell, including the
// documented blind spots; and through the kernel: a shell write into a guarded area is judged by
// the precedent gate, and a shell read counts as a read.
import { afterEach, describe, expect, it } from 'vitest'
import { shellReadCandidates } from '../src/shell-reads.ts'
import { shellWrites } from '../src/shell-writes.ts'
import { call, rig, toolTexts, type Rig } from './support/rig.ts'

const cwd = '/w'
const posix = (command: string) => shellWrites(command, 'posix', cwd).map((write) => write.path)
const pwsh = (command: string) => shellWrites(command, 'powershell', cwd).map((write) => write.path)

describe('shell writes (POSIX)', () => {
  it.each([
    ['echo x > .dsh/skills/a/SKILL.md', ['/w/.dsh/skills/a/SKILL.md']],
    ['echo x >> notes/log.md', ['/w/notes/log.md']],
    ['printf x 2> err.log', ['/w/err.log']],
    ['cat a.txt | tee b.txt', ['/w/b.txt']],
    ['cp src.md .dsh/skills/x/SKILL.md', ['/w/.dsh/skills/x/SKILL.md']],
    ['mv old.md new.md', ['/w/old.md', '/w/new.md']],
    ['rm -rf build/out.js', ['/w/build/out.js']],
    ["sed -i 's/a/b/' plan.md", ['/w/s/a/b', '/w/plan.md']],
    ['dd if=a.bin of=b.bin', ['/w/b.bin']],
    ['echo "a;b" > c.txt', ['/w/c.txt']],
    ['cd sub && touch ./x.md; ln -s a.md ../link.md', ['/w/x.md', '/link.md']],
    ['echo x >~/notes.md', [expect.stringMatching(/\/notes\.md$/u)]],
    ['rm -rf .dsh-maintainer-doc-guard', ['/w/.dsh-maintainer-doc-guard']],
    ['mv -f .env Makefile', ['/w/.env', '/w/Makefile']],
    ["sed --in-place 's/a/b/' plan.md", ['/w/s/a/b', '/w/plan.md']],
  ])('%s', (command, expected) => {
    expect(posix(command)).toEqual(expected)
  })

  it.each([
    ['cat plan.md', []],
    ['echo plan.md', []],
    ['ls > /dev/null 2>&1', []],
    ["sed 's/a/b/' plan.md", []],
    ['grep -n x a.md >&2', []],
  ])('reads and prints are not writes: %s', (command, expected) => {
    expect(posix(command)).toEqual(expected)
  })

  it.each([
    ['a program that writes on its own', 'node apply.mjs'],
    ['a path held in a variable', 'f=plan.md; echo x > $f'],
    ['a command substitution', 'echo x > "$(pick-file)"'],
  ])('blind spot: %s', (_what, command) => {
    expect(posix(command)).toEqual([])
  })

  it('names the statement that writes', () => {
    expect(shellWrites('ls; echo hi > a.md && true', 'posix', cwd)).toEqual([{ path: '/w/a.md', statement: 'echo hi > a.md' }])
  })
})

describe('shell writes (PowerShell)', () => {
  it.each([
    ['Set-Content -Path .\\.dsh\\skills\\a\\SKILL.md -Value x', ['/w/.dsh/skills/a/SKILL.md']],
    ['Copy-Item -LiteralPath a.md,b.md -Destination C:\\work\\x.md', ['/w/a.md', '/w/b.md', 'C:/work/x.md']],
    ['"x" | Out-File C:\\repo\\plan.md', ['C:/repo/plan.md']],
    ['Remove-Item .\\old.ps1', ['/w/old.ps1']],
    ['Remove-Item -Recurse -Force .dsh-maintainer-doc-guard', ['/w/.dsh-maintainer-doc-guard']],
    ['echo x > out.txt', ['/w/out.txt']],
    ['ni notes.md; Get-Date', ['/w/notes.md']],
  ])('%s', (command, expected) => {
    expect(pwsh(command)).toEqual(expected)
  })

  it.each([['Get-Content plan.md'], ['Write-Output plan.md'], ['$p = "plan.md"; Set-Content $p x']])('no write seen: %s', (command) => {
    expect(pwsh(command)).toEqual([])
  })
})

describe('shell reads', () => {
  it.each([
    ['cat a.md b.md', 'posix', ['/w/a.md', '/w/b.md']],
    ['head -n 5 src/x.js | grep y', 'posix', ['/w/src/x.js']],
    ['wc -l < in.txt', 'posix', ['/w/in.txt']],
    ['Get-Content .\\plan.md', 'powershell', ['/w/plan.md']],
    ['gc a.md,b.md', 'powershell', ['/w/a.md', '/w/b.md']],
    ['echo plan.md', 'posix', []],
    ['echo type: plan.md', 'posix', []],
  ] as const)('%s', (command, dialect, expected) => {
    expect(shellReadCandidates(command, dialect, cwd)).toEqual(expected)
  })
})

describe('shell commands through the gates', () => {
  let r: Rig | undefined
  afterEach(async () => {
    await r?.dispose()
    r = undefined
  })
  const SKILLS = { 'repo/.dsh/skills/alpha/SKILL.md': '# alpha\n' }

  it('denies a shell write into a guarded area and names the statement', async () => {
    r = await rig(SKILLS)
    const agent = await r.start([call('bash', { command: 'mkdir -p .dsh/skills/beta && echo "# beta" > .dsh/skills/beta/SKILL.md' }, 'Creating the beta SKILL.md with bash.'), { text: 'stop' }])
    await agent.prompt('go')
    const denial = toolTexts(r.requests[1])[0] ?? ''
    expect(denial).toContain('this bash command would change ".dsh/skills/beta/SKILL.md", which lies')
    expect(denial).toContain('- .dsh/skills/alpha/SKILL.md')
    expect(denial).toContain('This verdict comes from the command text: the statement `echo "# beta" > .dsh/skills/beta/SKILL.md` writes ".dsh/skills/beta/SKILL.md". Commands that only read are never blocked.')
  })

  it('counts a shell read of a precedent as a read', async () => {
    r = await rig(SKILLS)
    const agent = await r.start([
      call('bash', { command: 'cat .dsh/skills/alpha/SKILL.md' }, 'Reading the alpha SKILL.md with cat.'),
      call('write', { file_path: '.dsh/skills/beta/SKILL.md', content: '# beta\n' }, 'Now writing the beta SKILL.md.'),
      { text: 'done' },
    ])
    await agent.prompt('go')
    expect(toolTexts(r.requests[2])[1]).toBe('Created .dsh/skills/beta/SKILL.md (7 bytes).')
  })
})
