// How a finished bash call ended, from its result's footer: the exit status and the lines printed.
import { describe, expect, it } from 'vitest'
import { bashOutcome } from '../src/bash-outcome.ts'

describe('bash outcome', () => {
  it('reads the exit code or signal and counts the printed lines', () => {
    expect(bashOutcome('a\nb\n\n[Exit code: 0]')).toEqual({ status: 'exit 0', ok: true, lines: 2 })
    expect(bashOutcome('(no output)\n\n[Exit code: 3]')).toEqual({ status: 'exit 3', ok: false, lines: 0 })
    expect(bashOutcome('x\n\n[Terminated by signal SIGKILL]')).toEqual({ status: 'signal SIGKILL', ok: false, lines: 1 })
    expect(bashOutcome('The bash call was not approved.')).toBeUndefined()
  })
})
