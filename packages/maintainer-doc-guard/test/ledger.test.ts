// The lessons ledger: parsing both label languages, trigger matching with `*` pieces, the induced
// line and its dedupe.
import { describe, expect, it } from 'vitest'
import { lineMatches, takeLedgerHits } from '../src/ledger-hits.ts'
import { appendLine, changedKeys, inducedLine } from '../src/ledger-induction.ts'
import { parseLedger } from '../src/ledger-parser.ts'

const LEDGER = [
  '# Lessons',
  '- 错误：改了解析器没跑测试｜为什么错：以为很小｜正确：先跑 npm test｜触发：bash + npm*test｜2026-11-30',
  '- mistake: edited the wrong config｜why: two files share a name｜correct: check the package｜trigger: edit, write + parser*.ts｜2026-11-29',
  '- Mistake: x | Why: y | Correct: z | Trigger: grep | 2026-11-28',
  '- a line without a trigger｜2026-11-27',
  '- mistake: the trigger: field was empty｜why: y｜correct: z｜trigger: read + notes.md｜2026-11-26',
  'trigger: edit + not-a-bullet',
].join('\n')

describe('ledger parser', () => {
  it('reads Chinese and English labels, full-width and ASCII separators, and only bullets with a trigger', () => {
    expect(parseLedger(LEDGER).map((line) => ({ tools: line.tools, fragments: line.fragments }))).toEqual([
      { tools: ['bash'], fragments: ['npm*test'] },
      { tools: ['edit', 'write'], fragments: ['parser*.ts'] },
      { tools: ['grep'], fragments: [] },
      { tools: ['read'], fragments: ['notes.md'] },
    ])
  })
})

describe('ledger matching', () => {
  const [npm, parser, grep] = parseLedger(LEDGER)
  it('needs the tool and every * piece of one fragment', () => {
    expect(npm && lineMatches(npm, { tool: 'bash', haystack: '\nnpm run test' })).toBe(true)
    expect(npm && lineMatches(npm, { tool: 'bash', haystack: '\nnpm run build' })).toBe(false)
    expect(npm && lineMatches(npm, { tool: 'pwsh', haystack: '\nnpm test' })).toBe(false)
    expect(parser && lineMatches(parser, { tool: 'edit', haystack: '/w/src/Parser-v2.TS\n' })).toBe(true)
    expect(grep && lineMatches(grep, { tool: 'grep', haystack: '' })).toBe(true)
  })

  it('delivers each line once per session', () => {
    const fired = new Set<string>()
    const lines = parseLedger(LEDGER)
    expect(takeLedgerHits(lines, { tool: 'grep', haystack: '' }, fired)).toHaveLength(1)
    expect(takeLedgerHits(lines, { tool: 'grep', haystack: '' }, fired)).toHaveLength(0)
  })
})

describe('induction', () => {
  it('records the error, the changed keys and the trigger; an equal line is not added twice', () => {
    const line = inducedLine({ tool: 'edit', target: '/w/a.ts', error: 'No match for old_string in a.ts |\n try again', changed: changedKeys({ file_path: 'a', old_string: 'x' }, { file_path: 'a', old_string: 'y', replace_all: true }), date: '2026-12-01' })
    expect(line).toBe('- mistake: edit on /w/a.ts failed｜why: No match for old_string in a.ts / try again｜correct: the retry succeeded after changing old_string, replace_all (recorded by maintainer-doc-guard)｜trigger: edit + /w/a.ts｜2026-12-01')
    expect(parseLedger(line)[0]).toMatchObject({ tools: ['edit'], fragments: ['/w/a.ts'] })
    const once = appendLine('# Lessons', line)
    expect(once).toBe(`# Lessons\n${line}\n`)
    expect(appendLine(once ?? '', line.replace('2026-12-01', '2026-12-02'))).toBeUndefined()
  })
})
