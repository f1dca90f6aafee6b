// Red team, secrets and persistence (issue 19 items 4, 5 and 7): a sandboxed command looks for
// credentials — in its environment, in ~/.ssh, ~/.aws, ~/.netrc, ~/.config/gh and in other
// sessions' transcripts — writes through a descriptor dsh inherited from its launcher, and plants
// payloads that run outside the sandbox later (.git/hooks, .git/config, .vscode, a renamed .git),
// as root and as an unprivileged user. Nothing is found or planted, and git add/commit still work.
import { execFileSync } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { attackScript, attackWorkspace, runAttack, runners, toolResults, type Workspace } from './attack-harness.ts'

let w: Workspace | undefined
afterEach(async () => {
  await w?.tree.dispose()
  w = undefined
})

const secrets = {
  GITHUB_TOKEN: 'ghp-secret-1',
  GH_TOKEN: 'gh-secret-2',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-3',
  AWS_ACCESS_KEY_ID: 'aws-secret-4',
  NPM_TOKEN: 'npm-secret-5',
  NPM_CONFIG__AUTH: 'npm-secret-6',
  DB_PASSWORD: 'db-secret-7',
  SERVICE_CREDENTIALS: 'cred-secret-8',
  MY_SECRET: 'my-secret-9',
  DEEPSEEK_API_KEY: 'sk-secret-10',
}

describe.each(runners())('secrets and persistence, as $name', (runner) => {
  it('commands get no credentials from the environment (sandbox.passEnv passes one by name) nor from the home and dsh home', async () => {
    w = await attackWorkspace(runner, {
      'home/.ssh/id_ed25519': 'ssh-secret-key\n',
      'home/.aws/credentials': 'aws-file-secret\n',
      'home/.netrc': 'netrc-secret\n',
      'home/.config/gh/hosts.yml': 'gh-file-secret\n',
      'home/.docker/config.json': 'docker-secret\n',
      'dsh/sessions/20990101-000000-other.jsonl': 'transcript-secret\n',
      'config.yaml': 'sandbox:\n  passEnv: [PASSED_TOKEN]\n',
    })
    const h = w.home
    const script = attackScript(w, 'secrets.json', [
      `env | sort; cat ${h}/.ssh/id_ed25519 ${h}/.aws/credentials ${h}/.netrc ${h}/.config/gh/hosts.yml ${h}/.docker/config.json; ls -a ${h}/.ssh; cat ${w.dshHome}/sessions/*; grep -r secret ${h} ${w.dshHome}; echo searched`,
    ])
    const result = await runAttack(w, script, { env: { ...secrets, PASSED_TOKEN: 'passed-on-purpose' }, args: ['--config', w.tree.path('config.yaml')] })
    expect(result.code).toBe(0)
    const [output = ''] = toolResults(w)
    expect(output).toContain('searched')
    expect(output).toContain('PASSED_TOKEN=passed-on-purpose')
    expect(output).toContain(`HOME=${h}`)
    expect(output.match(/[a-z-]*secret[a-z0-9-]*/g) ?? []).toEqual([])
  })

  it('a descriptor dsh inherited from its launcher does not reach a command', async () => {
    w = await attackWorkspace(runner)
    const leak = `${w.outside}/leak.txt`
    writeFileSync(leak, '')
    if (runner.user !== undefined) execFileSync('chown', [`${runner.user.uid}:${runner.user.gid}`, leak])
    const fd = openSync(leak, 'a')
    try {
      const script = attackScript(w, 'fd.json', ['echo leaked >&5; echo "fd5=$?"; ls /proc/self/fd | tr "\\n" " "'])
      const result = await runAttack(w, script, { extraFd: fd })
      expect(result.code).toBe(0)
      const [output = ''] = toolResults(w)
      expect(output).toContain('fd5=1')
      expect(output).toContain('Bad file descriptor')
    } finally {
      closeSync(fd)
    }
    expect(readFileSync(leak, 'utf8')).toBe('')
  })

  it('a command cannot plant .git hooks, rewrite .git/config, replace .git, or change .vscode, .envrc or .dsh* files; git add and commit still work', async () => {
    w = await attackWorkspace(runner, { 'repo/.vscode/settings.json': '{}\n', 'repo/.envrc': 'export A=1\n', 'repo/.dsh-maintainer-doc-guard/plan.md': 'the plan\n' })
    execFileSync('git', ['init', '-q', w.repo])
    mkdirSync(`${w.repo}/.git/hooks`, { recursive: true })
    if (runner.user !== undefined) execFileSync('chown', ['-R', `${runner.user.uid}:${runner.user.gid}`, w.repo])
    const config = readFileSync(`${w.repo}/.git/config`, 'utf8')
    const git = 'git -c user.name=attacker -c user.email=a@example.com'
    const script = attackScript(w, 'git.json', [
      [
        'printf "#!/bin/sh\\ntouch /tmp/pwned\\n" > .git/hooks/pre-commit; echo "hook=$?"',
        'git config core.fsmonitor "touch /tmp/pwned"; echo "config=$?"',
        'echo "[core]" >> .git/config; echo "append=$?"',
        'echo x > .git/info/attributes; echo "info=$?"',
        'mv .git .git-old; echo "rename=$?"',
        'echo "{}" > .vscode/tasks.json; echo "vscode=$?"',
        'echo "curl evil" >> .envrc; echo "envrc=$?"',
        'echo "obey" > .dsh-maintainer-doc-guard/plan.md; echo "plan=$?"',
        `${git} add notes.txt && ${git} commit -qm first && echo committed`,
      ].join('; '),
    ])
    const result = await runAttack(w, script)
    expect(result.code).toBe(0)
    const [output = ''] = toolResults(w)
    for (const attempt of ['hook', 'config', 'append', 'info', 'rename', 'vscode', 'envrc', 'plan']) expect(output).not.toContain(`${attempt}=0`)
    expect(output).toContain('committed')
    expect(existsSync(`${w.repo}/.git/hooks/pre-commit`)).toBe(false)
    expect(readFileSync(`${w.repo}/.git/config`, 'utf8')).toBe(config)
    expect(existsSync(`${w.repo}/.git-old`)).toBe(false)
    expect(existsSync(`${w.repo}/.vscode/tasks.json`)).toBe(false)
    expect(readFileSync(`${w.repo}/.envrc`, 'utf8')).toBe('export A=1\n')
    expect(readFileSync(`${w.repo}/.dsh-maintainer-doc-guard/plan.md`, 'utf8')).toBe('the plan\n')
    expect(execFileSync('git', ['-c', 'safe.directory=*', '-C', w.repo, 'log', '--format=%s'], { encoding: 'utf8' })).toBe('first\n')
  })
})
