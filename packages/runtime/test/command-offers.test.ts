// What an "allow always" answer offers for shell syntax around commands and for programs that run
// other commands: reserved words are no program, and no prefix ever approves a command runner.
import { describe, expect, it } from 'vitest'
import * as fc from 'fast-check'
import { COMMAND_RUNNERS, commandPart, commandScope, partPrefixes, suggestedPrefix } from '../src/index.ts'

describe('reading one simple command', () => {
  it('leaves out reserved words before the program and knows parts that run nothing', () => {
    expect(commandPart('then cat notes.md')).toEqual({ kind: 'command', text: 'cat notes.md', program: 'cat', writesFile: false })
    expect(commandPart('if ! grep -q x f')).toEqual({ kind: 'command', text: 'grep -q x f', program: 'grep', writesFile: false })
    expect(commandPart('do /usr/bin/echo line $i')).toEqual({ kind: 'command', text: '/usr/bin/echo line $i', program: 'echo', writesFile: false })
    expect(commandPart('time npm test')).toEqual({ kind: 'command', text: 'npm test', program: 'npm', writesFile: false })
    expect(['fi', 'done', 'else', 'then', '}', 'for i in 1 2 3', 'for name', '  '].map((part) => commandPart(part).kind)).toEqual(Array(8).fill('nothing'))
    expect(['case $x in', 'function f', 'for ((i=0; i<3; i++))', 'for a b c', '[[ -f x ]]', 'f() {', 'esac x', 'ls () { rm -rf src', '(cd src', 'npm test)'].map((part) => commandPart(part).kind)).toEqual(Array(10).fill('opaque'))
    expect(commandPart('echo "(not a subshell)" \\(')).toMatchObject({ kind: 'command', program: 'echo' })
    // A loop that reads a file runs nothing more at its end; one that writes one is not followed.
    expect(['done < list.txt', 'done <list.txt', 'done 0< in'].map((part) => commandPart(part).kind)).toEqual(['nothing', 'nothing', 'nothing'])
    expect(['done > out.txt', 'done < in > out', 'done | sort', 'done < <(ls)'].map((part) => commandPart(part).kind)).toEqual(['opaque', 'opaque', 'opaque', 'opaque'])
  })
})

function writes(command: string): boolean {
  const part = commandPart(command)
  return part.kind === 'command' && part.writesFile
}

describe('output into a file', () => {
  it('is told apart from descriptors, /dev/null and quoted text', () => {
    expect(['echo x > src/a.ts', 'echo x >>log', 'ls &> out', 'ls >| out', 'cat <> f', 'ls 2> err.txt', 'ls >&out', 'ls > "/dev/null"'].map(writes)).toEqual(Array(8).fill(true))
    expect(['ls 2>&1', 'ls >&2', 'ls > /dev/null 2>&1', 'ls &>/dev/null', 'ls 2>/dev/null', 'echo "a > b"', "echo 'x>y'", 'echo a\\>b', 'ls >&-', 'sort < in.txt'].map(writes)).toEqual(Array(10).fill(false))
  })
})

describe('prefixes offered for an "allow always" answer', () => {
  it('a loop offers the commands in its body, never the loop words', () => {
    expect(partPrefixes('for i in 1 2 3 4 5 6 7; do echo line $i; sleep 0.3; done')).toEqual(['echo line', 'sleep'])
    expect(partPrefixes('if [ -f x ]; then cat x; fi')).toEqual(['[', 'cat x'])
    expect(partPrefixes('while true; do npm test; done')).toEqual(['true', 'npm test'])
    expect(commandScope('time npm test')).toEqual({ kind: 'command-prefix', prefix: 'npm test' })
  })

  it('a program that runs other commands gets no prefix, alone or as a part', () => {
    for (const command of ['timeout 60 npm test', 'env NODE_ENV=test npm test', 'sudo rm -rf /tmp/x', 'xargs rm', 'nohup ./server', 'bash -c "rm -rf src"', 'sh script.sh', 'eval echo hi', '/usr/bin/timeout 5 ls', 'FOO=1 timeout 5 rm -rf src', 'nice -n 5 make']) {
      expect(suggestedPrefix(command), command).toBeUndefined()
      expect(commandScope(command), command).toBeUndefined()
    }
    expect(partPrefixes('npm test && timeout 5 npm run lint')).toBeUndefined()
    expect(partPrefixes('if true; then xargs rm; fi')).toBeUndefined()
  })

  it('a quoted or escaped program gets no prefix (the runner check cannot be spelled past)', () => {
    expect(['"timeout" 5 rm -rf src', "'sudo' rm x", 't\\imeout 5 rm', '$CMD rm x', 'time -p rm -rf src'].map(suggestedPrefix)).toEqual([undefined, undefined, undefined, undefined, undefined])
  })

  it('assignments stay in the prefix with the program after them', () => {
    expect(suggestedPrefix('FOO=1 npm test -- --run')).toBe('FOO=1 npm test')
    expect(suggestedPrefix('CI=1 make')).toBe('CI=1 make')
    expect(suggestedPrefix('FOO=1')).toBeUndefined()
  })

  it('no offered prefix, for any command line, names a command runner or a reserved word as its program', () => {
    const word = fc.constantFrom(...COMMAND_RUNNERS, 'if', 'then', 'do', 'done', 'fi', 'for', 'while', 'time', '!', 'npm', 'test', 'git', 'status', 'FOO=1', '-n', '5', 'x')
    const operator = fc.constantFrom(' ', ' ', ' ', '; ', ' && ', ' | ')
    fc.assert(
      fc.property(fc.array(fc.tuple(word, operator), { minLength: 1, maxLength: 8 }), (pairs) => {
        const command = pairs.map(([w, op]) => `${w}${op}`).join('')
        const scope = commandScope(command)
        const prefixes = scope === undefined ? [] : scope.kind === 'command-prefix' ? [scope.prefix] : scope.kind === 'command-prefixes' ? scope.prefixes : []
        return prefixes.every((prefix) => {
          const program = prefix.split(' ').find((w) => !/^[A-Za-z_]\w*=/.test(w)) ?? ''
          return !COMMAND_RUNNERS.has(program) && !['if', 'then', 'do', 'done', 'fi', 'for', 'while', 'time', '!'].includes(program)
        })
      }),
      { numRuns: 2000 },
    )
  })
})
