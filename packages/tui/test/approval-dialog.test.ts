// The permission dialog on its own: every line and character of the command is on screen
// (wrapped, never cut), with where it runs and why it asks; a command taller than the terminal
// scrolls inside the dialog, which says which lines are shown, and "allow" is refused until every
// line has been on screen, while "no" always works.
import { describe, expect, it } from 'vitest'
import type { PermissionDecision, ToolExecution } from '@dsh/contracts'
import { permissionQuestion } from '../src/approvals/permission-question.ts'
import { ApprovalDialog, settleMs } from '../src/screen/approval-dialog.ts'
import { createTheme } from '../src/theme.ts'

const theme = createTheme({ color: false, attributes: false })
const keys = { down: '\x1b[B', enter: '\r', pageDown: '\x1b[6~', end: '\x1b[F', escape: '\x1b' }

function dialog(command: string, rows: number, answers: PermissionDecision[] = []): ApprovalDialog {
  const execution: ToolExecution = { callId: 'c1', name: 'bash', arguments: { command }, signal: new AbortController().signal, token: Symbol('c1') }
  const question = permissionQuestion(execution, { cwd: '/work/repo', reason: 'bash asks in ask mode' })
  // The clock stands past the settling pause once the dialog exists, so keys count at once.
  let now = 0
  const box = new ApprovalDialog({ question, theme, now: () => now, answer: (decision) => answers.push(decision), typeAhead: () => undefined, rows: () => rows })
  now = settleMs + 1
  return box
}

describe('the permission dialog', () => {
  const script = Array.from({ length: 45 }, (_, i) => `echo ${i + 1}`).join('\n')

  it('wraps a one-line command longer than the terminal so its end is on screen, with the directory and the reason', () => {
    const command = `find . -name "*.tmp" -print0 | xargs -0 ls -la ${'x'.repeat(120)} 2>&1; rm -rf ~/.ssh`
    const lines = dialog(command, 40).render(120)
    expect(lines.join('')).toContain('rm -rf ~/.ssh')
    expect(lines.every((line) => line.length <= 120)).toBe(true)
    expect(lines).toContain('in /work/repo')
    expect(lines).toContain('why: bash asks in ask mode')
    expect(lines.join('').replace(/\s+/g, '')).toContain(command.replace(/\s+/g, ''))
  })

  it('shows every line of a 12-line command at 120×40 and allows at once', () => {
    const twelve = Array.from({ length: 12 }, (_, i) => `echo line-${i + 1}`).join('\n')
    const answers: PermissionDecision[] = []
    const box = dialog(twelve, 40, answers)
    const lines = box.render(120)
    for (let i = 1; i <= 12; i += 1) expect(lines).toContain(`  echo line-${i}`)
    box.handleInput(keys.enter)
    expect(answers).toEqual([{ kind: 'allow-once' }])
  })

  it('scrolls a command taller than the terminal and refuses "allow" until every line was shown; "no" works at once', () => {
    const answers: PermissionDecision[] = []
    const box = dialog(script, 24, answers)
    const first = box.render(80)
    expect(first.length).toBeLessThanOrEqual(24)
    expect(first).toContain('  echo 1')
    expect(first.some((line) => /^lines 1–\d+ of 45 · PgUp\/PgDn scroll · more below$/.test(line))).toBe(true)
    box.handleInput(keys.enter)
    expect(answers).toEqual([])
    expect(box.render(80).at(-1)).toBe('Allowing needs every line on screen once: PgDn to read on')
    for (let page = 0; page < 10; page += 1) {
      box.handleInput(keys.pageDown)
      box.render(80)
    }
    expect(box.render(80)).toContain('  echo 45')
    box.handleInput(keys.enter)
    expect(answers).toEqual([{ kind: 'allow-once' }])
  })

  it('pages skipped by keys faster than the screen are named, and PgUp to them allows', () => {
    const answers: PermissionDecision[] = []
    const box = dialog(script, 24, answers)
    const first = box.render(80)
    const shown = Number(/^lines 1–(\d+) of 45/.exec(first.find((line) => line.startsWith('lines ')) ?? '')?.[1])
    // Four pages without a frame between them (the answers take five of the 24 rows, "always" for the parts' `echo` prefix among them): the lines between never showed.
    for (let page = 0; page < 4; page += 1) box.handleInput(keys.pageDown)
    expect(box.render(80)).toContain('  echo 45')
    box.handleInput(keys.enter)
    expect(answers).toEqual([])
    expect(box.render(80).at(-1)).toBe(`Allowing needs every line on screen once: line ${shown + 1} not shown yet, PgUp`)
    for (let page = 0; page < 10; page += 1) {
      box.handleInput('\x1b[5~')
      box.render(80)
    }
    box.handleInput(keys.enter)
    expect(answers).toEqual([{ kind: 'allow-once' }])
  })

  it('jumping to the end does not count as having seen the middle', () => {
    const answers: PermissionDecision[] = []
    const box = dialog(script, 24, answers)
    box.render(80)
    box.handleInput(keys.end)
    box.render(80)
    box.handleInput(keys.enter)
    expect(answers).toEqual([])
    const rejected: PermissionDecision[] = []
    const other = dialog(script, 24, rejected)
    other.render(80)
    other.handleInput(keys.escape)
    expect(rejected).toEqual([{ kind: 'reject' }])
  })
})
