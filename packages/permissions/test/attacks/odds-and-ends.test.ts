// Red team, odds and ends (issue 19 item 9): a run_code grandchild that left the process group,
// dropped dsh's marker and holds the IPC channel does not keep a timed-out call open and does not
// survive it; what commands leave in the temp directory is gone when dsh ends, and a crashed dsh's
// leftovers are removed at the next start; dsh run prints no terminal control sequences to a
// terminal (a pseudo-terminal through `script`), nor to a pipe unless --raw is given.
import { execFileSync, spawnSync } from 'node:child_process'
import { randomInt } from 'node:crypto'
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { dshBinary } from '../../../../apps/cli/test/run-dsh.ts'
import { attackScript, attackWorkspace, processesRunning, runAttack, runners, toolResults, type Workspace } from './attack-harness.ts'

let w: Workspace | undefined
afterEach(async () => {
  await w?.tree.dispose()
  w = undefined
})

describe.each(runners())('run_code and the temp directory, as $name', (runner) => {
  it('a grandchild holding the IPC channel outside the group and without the marker ends with the timed-out snippet', async () => {
    w = await attackWorkspace(runner)
    // A duration no other process on the machine has (another suite may run this same test meanwhile).
    const duration = `333.${randomInt(100_000, 1_000_000)}`
    const code = [
      "const { spawn } = await import('node:child_process')",
      `spawn('sleep', ['${duration}'], { stdio: ['ignore', 'ignore', 'ignore', Number(process.env.NODE_CHANNEL_FD)], detached: true, env: { PATH: process.env.PATH } }).unref()`,
      'await new Promise(() => {})',
    ].join('\n')
    const script = attackScript(w, 'holder.json', [{ name: 'run_code', arguments: { code, timeout_ms: 5000 } }])
    const result = await runAttack(w, script)
    expect(result).toMatchObject({ code: 0, stdout: 'done\n' })
    expect(toolResults(w)[0]).toMatch(/^The snippet ran longer than 5000 ms and was stopped/)
    expect(processesRunning(['sleep', duration])).toEqual([])
  })

  it('what a command leaves in the temp directory is removed when dsh ends, and a crashed dsh\'s directory at the next start', async () => {
    w = await attackWorkspace(runner)
    const stale = join(w.tmp, 'dsh-tmp-999999999-1-0badc0de')
    mkdirSync(stale)
    writeFileSync(join(stale, 'left-over'), 'x'.repeat(1000))
    if (runner.user !== undefined) execFileSync('chown', ['-R', `${runner.user.uid}:${runner.user.gid}`, w.tmp])
    const script = attackScript(w, 'big.json', ['head -c 5000000 /dev/zero > "$TMPDIR/big" && ls "$TMPDIR" && echo wrote'])
    const result = await runAttack(w, script)
    expect(result.code).toBe(0)
    expect(toolResults(w)[0]).toBe('big\nwrote\n\n[Exit code: 0]')
    expect(readdirSync(w.tmp)).toEqual([])
  })
})

describe('dsh run output', () => {
  const answer = 'before\u001b]52;c;cHduZWQ=\u0007 \u001b[2J\u001b[31mred\u001b[0m\tafter\u009b1;1H\u001bPq#0\u001b\\ end\u0008!'
  const clean = 'before red\tafter end!'

  async function workspace() {
    const [self] = runners()
    if (self === undefined) throw new Error('no runner')
    w = await attackWorkspace(self)
    writeFileSync(w.tree.path('scripts/answer.json'), JSON.stringify({ responses: [{ text: answer }] }))
    return ['--dsh-home', w.dshHome, 'run', '--cwd', w.repo, '--model', `scripted:${w.tree.path('scripts/answer.json')}`]
  }

  it('strips control sequences on a terminal, also with --raw', async () => {
    const args = await workspace()
    for (const raw of [[], ['--raw']]) {
      const command = [dshBinary, ...args, ...raw, 'go'].map((word) => `'${word}'`).join(' ')
      const result = spawnSync('script', ['-qec', command, '/dev/null'], { env: { ...w?.env }, encoding: 'utf8', timeout: 60_000 })
      expect(result.status).toBe(0)
      const shown = result.stdout.replace(/\r/g, '')
      expect(shown).toContain(`${clean}\n`)
      for (const control of ['\u001b', '\u009b', '\u0007']) expect(shown).not.toContain(control)
    }
  })

  it('strips them on a pipe, and keeps them there with --raw', async () => {
    const args = await workspace()
    const plain = spawnSync(dshBinary, [...args, 'go'], { env: { ...w?.env }, encoding: 'utf8', timeout: 60_000 })
    expect(plain).toMatchObject({ status: 0, stdout: `${clean}\n` })
    const raw = spawnSync(dshBinary, [...args, '--raw', 'go'], { env: { ...w?.env }, encoding: 'utf8', timeout: 60_000 })
    expect(raw).toMatchObject({ status: 0, stdout: `${answer}\n` })
  })
})
