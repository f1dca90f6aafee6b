// Issue 19, item 8: deny rules normalise what the shell normalises. A corpus of equivalent
// spellings of denied commands (flag bundles and orders, long options, options before the
// subcommand, absolute programs, wrappers, quoting, compound commands) is all denied, and a
// corpus of commands that only look alike stays unmatched (no over-blocking).
import { describe, expect, it } from 'vitest'
import { denyingRule, parseRule } from '../src/index.ts'

const cwd = '/work/repo'
const deny = ['bash(rm -rf*)', 'bash(git push*)', 'bash(git reset --hard*)', 'bash(chmod -R*)', 'bash(git clean -fd*)'].map((text) => parseRule(text, 'test'))
const denied = (command: string) => denyingRule(deny, { tool: 'bash', args: { command }, cwd })?.text

const rmFlags = ['-rf', '-fr', '-Rf', '-fR', '-r -f', '-f -r', '-R -f', '--recursive --force', '--force --recursive', '-r --force', '--recursive -f', '-rfv', '-vrf', '-r -v -f', '-rf --', '-fr --', '--force -R', '-dRf', '-rfi', '--recursive --force --verbose']
const rmPrograms = ['rm', '/bin/rm', '/usr/bin/rm', '\\rm', "'rm'", '"rm"', 'r\\m', 'command rm', 'builtin rm', 'exec rm', 'env rm', 'env FOO=1 rm', 'sudo rm', 'sudo -u root rm', 'nice -n 5 rm', 'nohup rm', 'timeout 5 rm', 'FOO=1 rm']
const rmSpellings = [
  ...rmFlags.map((flags) => `rm ${flags} build`),
  ...rmPrograms.flatMap((program) => [`${program} -fr build`, `${program} --recursive --force -- build`]),
  'rm build -rf',
  'rm -r build -f',
]

const gitGlobals = ['', '-C . ', '-C /tmp/x ', '--git-dir=.git ', '--git-dir .git ', '--work-tree=. ', '-c user.name=x ', '-c core.editor=vi -C . ', '--no-pager ', '-P ', '--bare ', '--namespace=n ', '--literal-pathspecs ']
const gitPrograms = ['git', '/usr/bin/git', "'git'", 'command git', 'env GIT_TRACE=1 git', 'sudo git']
const gitSpellings = [
  ...gitGlobals.map((globals) => `git ${globals}push`),
  ...gitGlobals.map((globals) => `git ${globals}push origin main`),
  ...gitPrograms.map((program) => `${program} -C . push --force`),
  'git push -f',
  'git push --force-with-lease origin HEAD',
]

const otherSpellings = ['git -C . reset --hard HEAD~1', 'git reset --hard', '/usr/bin/git --no-pager reset --hard', 'chmod -R 777 .', 'chmod --recursive 777 .', '/bin/chmod -vR 700 x', 'git clean -fd', 'git clean -df', 'git clean -f -d', 'git -C . clean -dfx', 'git clean --force -d']

const compound = [
  'ls && rm -fr build',
  'ls; /bin/rm -Rf build',
  'ls | xargs rm --recursive --force',
  'echo $(rm -r -f build)',
  'echo `git -C . push`',
  '(git --no-pager push)',
  'true || sudo rm -fr /',
  'bash -c "rm -Rf build"',
  "sh -c 'git -C . push origin'",
  'if true; then rm -fr x; fi',
]

describe('equivalent spellings of denied commands', () => {
  const corpus = [...rmSpellings, ...gitSpellings, ...otherSpellings, ...compound]
  it(`has at least 100 spellings (${corpus.length})`, () => {
    expect(corpus.length).toBeGreaterThanOrEqual(100)
  })
  it('denies every one of them', () => {
    const missed = corpus.filter((command) => denied(command) === undefined)
    expect(missed).toEqual([])
  })
})

describe('commands that only look alike', () => {
  const innocent = [
    'rm file',
    'rm -f file',
    'rm -r dir',
    'rm -i -r dir',
    'rm -- -rf',
    'echo rm -rf',
    'echo "rm -rf build"',
    "grep -r 'rm -rf' .",
    'git pull',
    'git pull --rebase',
    'git status',
    'git log --grep push',
    'git -C push status',
    'git commit -m "git push later"',
    'git stash push',
    'git remote set-url --push origin x',
    'git reset --soft HEAD~1',
    'git reset HEAD file',
    'chmod 644 file',
    'chmod -v 644 file',
    'git clean -n',
    'git clean -f',
    'npm run push',
    'cat rm',
    'ls -rf',
    'printf "%s" -rf',
    'man rm',
    'which rm',
    'git help push',
  ]
  it('leaves every one of them unmatched', () => {
    const blocked = innocent.filter((command) => denied(command) !== undefined).map((command) => `${command} -> ${denied(command) ?? ''}`)
    expect(blocked).toEqual([])
  })
})
