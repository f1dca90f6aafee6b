// dsh's bundled commands (`/init`): offered in every directory after every command file, listed
// with scope `bundled`; a project or user file of the same name wins and the bundled one is listed
// as shadowed by it; `/init` sends its exact text, with any words after it appended.
import { afterEach, describe, expect, it } from 'vitest'
import { createLocalFileSystem } from '@dsh/fs-local'
import { tempTree, type TempTree, type TreeSpec } from '@dsh/testkit'
import { BUNDLED_FILE, expandPrompt, formatSkillList, INIT_PROMPT, invocableNames, loadWorkspaceSkills } from '../src/index.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

async function load(spec: TreeSpec) {
  tree = await tempTree({ 'repo/.git/': null, 'home/': null, 'os-home/': null, ...spec })
  return loadWorkspaceSkills({ fs: createLocalFileSystem({ writableRoots: [] }), cwd: tree.path('repo'), dshHome: tree.path('home'), home: tree.path('os-home') })
}

// The exact text the model gets for /init (README "What the model sees").
const INIT_GOLDEN = `Write the AGENTS.md file of this project: the instructions every coding agent that works here will read first.

First look at the repository: its README, build and package files, CI configuration, the layout of its source and test folders, and any instruction files it already has (AGENTS.md, CLAUDE.md, .cursor/rules, .github/copilot-instructions.md). Then write AGENTS.md at the project root with:
- the exact commands to install, build, test (one test too) and lint, as this project runs them;
- how the code is laid out: where each part lives and what it is for;
- the conventions a change here must follow (style, naming, tests, commit messages), and what to avoid.

Keep it short and specific to this repository; leave out advice that fits any project. If AGENTS.md exists already, improve it rather than starting over: keep what is still true, correct what is not, and add what is missing. When you are done, say in a few lines what you wrote or changed.`

describe('bundled commands', () => {
  it('/init is there in a project without command files and sends its text', async () => {
    const found = await load({})
    expect(found.commands.map((command) => [command.name, command.scope, command.file, command.shadowedBy])).toEqual([['init', 'bundled', BUNDLED_FILE, undefined]])
    expect(invocableNames(found)).toEqual(['init'])
    const plain = expandPrompt('/init', found)
    expect(plain).toMatchObject({ kind: 'expanded', name: 'init', from: 'command', text: INIT_GOLDEN })
    expect(INIT_PROMPT).toBe(INIT_GOLDEN)
    expect(expandPrompt('/init the tests live in spec/', found)).toMatchObject({ kind: 'expanded', text: `${INIT_PROMPT}\n\nARGUMENTS: the tests live in spec/\n` })
    expect(formatSkillList(found.skills, found.commands)).toContain("/init  active  bundled  (built into dsh)  write or improve this project's AGENTS.md")
  })

  it('a command file named init wins; the bundled one is listed as shadowed by it', async () => {
    const found = await load({ 'repo/.claude/commands/init.md': 'Our own init.\n' })
    const file = tree?.path('repo/.claude/commands/init.md') ?? ''
    expect(found.commands.map((command) => [command.name, command.scope, command.shadowedBy])).toEqual([
      ['init', 'project', undefined],
      ['init', 'bundled', file],
    ])
    expect(expandPrompt('/init', found)).toMatchObject({ kind: 'expanded', text: 'Our own init.\n', file })
    expect(invocableNames(found)).toEqual(['init'])
  })
})
