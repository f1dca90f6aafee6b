// `/name args` expansion and argument substitution: what is a command, what wins, what is sent.
import { describe, expect, it } from 'vitest'
import { expandPrompt, invocableNames, splitArguments, substitute, unknownCommandLine, type CommandFile, type LoadedSkill, type SkillSet } from '../src/index.ts'

const command = (name: string, body: string, extra: Partial<CommandFile> = {}): CommandFile => ({ name, file: `/p/.dsh/commands/${name}.md`, body, scope: 'project', ...extra })

const skill = (name: string, body: string, userInvocable = true): LoadedSkill => ({
  kind: 'skill',
  meta: { name, description: 'd', disableModelInvocation: false, userInvocable, allowedTools: [], extra: {} },
  body,
  folder: `/p/.dsh/skills/${name}`,
  file: `/p/.dsh/skills/${name}/SKILL.md`,
  digest: 'x',
  source: { dir: '/p/.dsh/skills', scope: 'project', family: '.dsh', rel: '.' },
})

const set = (...skills: [string, LoadedSkill][]): SkillSet => ({ skills: new Map(skills), entries: [], projectRoot: '/p', problems: [], linkRoots: [] })

describe('argument substitution', () => {
  it('fills $ARGUMENTS, $1…$9 (quotes group words) and ${SKILL_DIR}; never runs anything', () => {
    expect(splitArguments(`a "b c" 'd e' f`)).toEqual(['a', 'b c', 'd e', 'f'])
    expect(substitute('all=$ARGUMENTS one=$1 two=$2 ten=$10 none=$9 dir=${SKILL_DIR} $(rm -rf /)', { arguments: ' x "y z" ', skillDir: '/s' })).toBe('all=x "y z" one=x two=y z ten=$10 none= dir=/s $(rm -rf /)')
  })

  it("reads Claude Code's spellings: ${CLAUDE_SKILL_DIR}, $ARGUMENTS[N] and, where the body uses $0, 0-based positions", () => {
    expect(substitute('run ${CLAUDE_SKILL_DIR}/go.sh on $ARGUMENTS[0] then $ARGUMENTS[1], not $ARGUMENTS[5]', { arguments: 'api "web app"', skillDir: '/s' })).toBe('run /s/go.sh on api then web app, not ')
    expect(substitute('from $0 to $1 ($2)', { arguments: 'staging prod' })).toBe('from staging to prod ()')
    expect(substitute('to $1', { arguments: 'staging prod' })).toBe('to staging')
    // $ARGUMENTS[N] counts as a mention: nothing is appended.
    expect(substitute('first: $ARGUMENTS[0]', { arguments: 'a b' })).toBe('first: a')
    expect(substitute('$10 and $00 are not placeholders', { arguments: 'a' })).toBe('$10 and $00 are not placeholders\n\nARGUMENTS: a\n')
  })

  it('appends the arguments to a body that mentions none of them; keeps ${SKILL_DIR} in commands', () => {
    expect(substitute('Do it.\n', { arguments: 'now please' })).toBe('Do it.\n\nARGUMENTS: now please\n')
    expect(substitute('Do it.\n', { arguments: '' })).toBe('Do it.\n')
    expect(substitute('In ${SKILL_DIR}', { arguments: '' })).toBe('In ${SKILL_DIR}')
  })
})

describe('/name expansion', () => {
  const invocables = { commands: [command('release', 'Release $1.'), command('ops:deploy', 'Ops deploy $ARGUMENTS'), command('release', 'loser', { shadowedBy: '/p/.dsh/commands/release.md' })], skills: set(['deploy', skill('deploy', 'Deploy to $1 from ${SKILL_DIR}.')], ['hidden', skill('hidden', 'x', false)], ['release', skill('release', 'skill loses')]) }

  it('expands commands (subfolder groups too) before skills of the same name, and skills with their folder', () => {
    expect(expandPrompt('/release 1.2', invocables)).toMatchObject({ kind: 'expanded', from: 'command', text: 'Release 1.2.' })
    expect(expandPrompt('/ops:deploy a b', invocables)).toMatchObject({ kind: 'expanded', text: 'Ops deploy a b' })
    expect(expandPrompt('/deploy qa', invocables)).toMatchObject({ kind: 'expanded', from: 'skill', text: 'Deploy to qa from /p/.dsh/skills/deploy.' })
    // A skill's invocation is recorded with the prompt (a compaction brings its instructions back); a command's is not.
    expect(expandPrompt('/deploy qa', invocables)).toMatchObject({ events: [{ type: 'skills/invoked', data: { version: 1, key: 'deploy', arguments: 'qa' } }] })
    expect(expandPrompt('/release 1.2', invocables)).toMatchObject({ events: [] })
  })

  it('leaves plain prompts, paths, built-ins and a leading space alone; an unknown name lists the known ones', () => {
    expect(expandPrompt('/etc/hosts is wrong', invocables)).toEqual({ kind: 'plain' })
    expect(expandPrompt(' /release 1', invocables)).toEqual({ kind: 'plain' })
    expect(expandPrompt('release 1', invocables)).toEqual({ kind: 'plain' })
    expect(expandPrompt('/release 1', { ...invocables, builtins: new Set(['release']) })).toEqual({ kind: 'plain' })
    expect(expandPrompt('/hidden', invocables)).toEqual({ kind: 'unknown', name: 'hidden', known: ['ops:deploy', 'release', 'deploy'] })
    expect(invocableNames(invocables)).toEqual(['ops:deploy', 'release', 'deploy'])
    expect(expandPrompt('/usr/bin/foo is broken', invocables)).toEqual({ kind: 'plain' })
    expect(expandPrompt('/tmp/a.ts:3 fails', invocables)).toEqual({ kind: 'plain' })
    expect(unknownCommandLine('nope', [])).toBe('unknown command /nope; no custom commands or skills are defined here (a prompt that starts with / names a command; start it with a space or another word to send it as it is)')
  })

  it('expands a nested qualified skill (/pkg/web:deploy) the set holds', () => {
    const nested = { commands: [], skills: set(['pkg/web:deploy', { ...skill('deploy', 'Nested deploy $1 in ${SKILL_DIR}.'), folder: '/p/pkg/web/.dsh/skills/deploy' }]) }
    expect(expandPrompt('/pkg/web:deploy qa', nested)).toMatchObject({ kind: 'expanded', from: 'skill', text: 'Nested deploy qa in /p/pkg/web/.dsh/skills/deploy.' })
    expect(expandPrompt('/pkg/api:deploy qa', nested)).toEqual({ kind: 'plain' })
    // Listed like any other name (front ends complete it once the session's catalog announced it).
    expect(invocableNames(nested)).toEqual(['pkg/web:deploy'])
  })
})
