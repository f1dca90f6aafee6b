// `dsh` in a terminal without a command is `dsh chat` — alone, with chat options, or with a
// prompt of several words — while a single unknown word stays an unknown command and nothing
// changes outside a terminal.
import { describe, expect, it } from 'vitest'
import { interactiveAlias } from '../src/interactive-alias.ts'

const commands = new Set(['run', 'exec', 'chat', 'sessions', 'help', 'web'])
const alias = (argv: string[], interactive = true) => interactiveAlias(argv, commands, interactive)

describe('dsh without a command in a terminal', () => {
  it('opens the chat: alone, with a prompt of several words, with chat options', () => {
    expect(alias([])).toEqual(['chat'])
    expect(alias(['fix the failing test'])).toEqual(['chat', 'fix the failing test'])
    expect(alias(['--model', 'deepseek:deepseek-v4-pro', 'plan the migration'])).toEqual(['chat', '--model', 'deepseek:deepseek-v4-pro', 'plan the migration'])
    expect(alias(['--resume', '20261207-001122-ab12cd'])).toEqual(['chat', '--resume', '20261207-001122-ab12cd'])
    expect(alias(['--dsh-home', '/h'])).toEqual(['--dsh-home', '/h', 'chat'])
    expect(alias(['--dsh-home=/h', 'why is it slow?'])).toEqual(['--dsh-home=/h', 'chat', 'why is it slow?'])
  })

  it('leaves commands, help, version, -p and single unknown words alone', () => {
    for (const argv of [['run', 'fix it now'], ['--dsh-home', '/h', 'sessions', 'list'], ['--help'], ['-v'], ['-p', 'fix it now'], ['help'], ['sesions'], ['web', '--port', '0']]) expect(alias(argv)).toEqual(argv)
  })

  it('changes nothing outside a terminal', () => {
    for (const argv of [[], ['fix the failing test'], ['--model', 'x']]) expect(alias(argv, false)).toEqual(argv)
  })
})
