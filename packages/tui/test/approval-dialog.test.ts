// The permission dialog on its own: a long command is cut so the question and its answers fit
// the terminal, with the title on top and a count of what is not shown.
import { describe, expect, it } from 'vitest'
import type { ToolExecution } from '@dsh/contracts'
import { permissionQuestion } from '../src/approvals/permission-question.ts'
import { ApprovalDialog } from '../src/screen/approval-dialog.ts'
import { createTheme } from '../src/theme.ts'

const theme = createTheme({ color: false, attributes: false })

function dialog(command: string, rows: number): ApprovalDialog {
  const execution: ToolExecution = { callId: 'c1', name: 'bash', arguments: { command }, signal: new AbortController().signal, token: Symbol('c1') }
  return new ApprovalDialog({ question: permissionQuestion(execution, undefined), theme, now: () => 0, answer: () => undefined, typeAhead: () => undefined, rows: () => rows })
}

describe('the permission dialog', () => {
  const script = Array.from({ length: 45 }, (_, i) => `echo ${i + 1}`).join('\n')

  it('fits a long command into a 24-row terminal with the question on top and the answers below', () => {
    const lines = dialog(script, 24).render(80)
    expect(lines.length).toBeLessThanOrEqual(22)
    expect(lines.slice(1, 4)).toEqual(['Run bash: echo 1 (+44 lines)?', '  echo 1', '  echo 2'])
    expect(lines.slice(-7)).toEqual([
      '  echo 14',
      '  … 31 more lines not shown',
      '→ 1. Yes, run it once',
      '  2. Yes, and allow every bash call for the rest of this session',
      '  3. No, and tell the model what to do instead…',
      '  4. No',
      '↑/↓ choose · Enter confirm · Esc reject',
    ])
  })

  it('shows up to 40 lines where there is room', () => {
    const lines = dialog(script, 80).render(80)
    expect(lines).toContain('  echo 40')
    expect(lines).toContain('  … 5 more lines not shown')
  })
})
