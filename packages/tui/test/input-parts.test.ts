// Prompt history per project in $DSH_HOME, @file references, and the slash registry's plug-ins.
import { appendFileSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { historyFile, historyLimit, PromptHistory } from '../src/input/prompt-history.ts'
import { referencePrefix, referenceSuggestions } from '../src/input/completion.ts'
import { SlashRegistry, type SlashContext } from '../src/slash/slash-registry.ts'
import type { ChatController } from '../src/chat-controller.ts'
import type { ChatView } from '../src/chat-view.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

describe('prompt history', () => {
  it('is kept per project, survives torn lines, and loads the latest entries oldest first', async () => {
    tree = await tempTree({ 'home/': null, 'a/': null, 'b/': null })
    const warnings: string[] = []
    const history = (dir: string) => new PromptHistory({ dshHome: tree!.path('home'), projectDir: tree!.path(dir), warn: (line) => warnings.push(line) })
    const now = new Date('2026-12-01T10:00:00Z')
    history('a').add('first\nwith two lines', now)
    history('a').add('second', now)
    history('b').add('elsewhere', now)
    history('a').add('   ', now)
    appendFileSync(historyFile(tree.path('home'), tree.path('a')), '{"text": "torn')
    expect(history('a').load()).toEqual(['first\nwith two lines', 'second'])
    expect(history('b').load()).toEqual(['elsewhere'])
    for (let i = 0; i < historyLimit + 5; i++) history('b').add(`entry ${i}`, now)
    const loaded = history('b').load()
    expect(loaded).toHaveLength(historyLimit)
    expect(loaded.at(-1)).toBe(`entry ${historyLimit + 4}`)
    expect(readFileSync(historyFile(tree.path('home'), tree.path('a')), 'utf8')).toContain('"time":"2026-12-01T10:00:00.000Z"')
    expect(warnings).toEqual([])
  })
})

describe('@file references', () => {
  it('complete from the directory the reference names, directories first, hidden files only when asked', async () => {
    tree = await tempTree({ 'src/app.ts': '', 'src/lib/x.ts': '', 'notes.txt': '', '.env': '', 'node_modules/y/': null })
    expect(referencePrefix('look at @sr')).toBe('@sr')
    expect(referencePrefix('email me@x')).toBeUndefined()
    expect(referencePrefix('no reference')).toBeUndefined()
    expect(referenceSuggestions(tree.root, '@').map((item) => item.value)).toEqual(['@src/', '@notes.txt'])
    expect(referenceSuggestions(tree.root, '@src/').map((item) => item.value)).toEqual(['@src/lib/', '@src/app.ts'])
    expect(referenceSuggestions(tree.root, '@.e').map((item) => item.value)).toEqual(['@.env'])
    expect(referenceSuggestions(tree.root, '@missing/')).toEqual([])
  })
})

const none = (): void => undefined

/** A view that records command output; the other calls do nothing. */
function recordingView(shown: string[][]): ChatView {
  return {
    progress: none,
    promptStarted: none,
    turnEnded: none,
    lines: (lines) => void shown.push([...lines]),
    diff: none,
    error: none,
    replay: none,
    pickSession: () => Promise.resolve(undefined),
    choose: () => Promise.resolve(undefined),
    modalLists: false,
    statusChanged: none,
    queueChanged: none,
    restoreDraft: none,
  }
}

function context(shown: string[][]): SlashContext {
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- these commands never touch the controller; a whole chat is not needed to test the registry.
  return { controller: undefined as unknown as ChatController, view: recordingView(shown), signal: new AbortController().signal }
}

describe('slash registry', () => {
  it('runs plugged-in commands that return text, by name or alias; unknown names get a hint', async () => {
    const registry = new SlashRegistry()
    const shown: string[][] = []
    registry.register({ name: 'docs', usage: '/docs', help: 'maintainer documents', run: () => 'plan.md: in effect' })
    registry.register({ name: 'workspace-folders', aliases: ['roots'], usage: '/workspace-folders', help: 'roots', run: (_context, args) => ['roots:', ...args] })
    await registry.run({ name: 'docs', args: [] }, context(shown))
    await registry.run({ name: 'roots', args: ['a', 'b'] }, context(shown))
    await registry.run({ name: 'nope', args: [] }, context(shown))
    expect(shown).toEqual([['plan.md: in effect'], ['roots:', 'a', 'b'], ['unknown command /nope (type /help for the list)']])
    expect(registry.list().map((spec) => spec.name)).toEqual(['docs', 'workspace-folders'])
  })
})
