/**
 * The sandbox start cost per shell call (issue 19): the wall time from spawn to exit of `true`
 * launched four ways, alternated round by round in one process so machine load hits all alike —
 * no sandbox (`bash -c true`), the previous sandbox (shared pid namespace, no prelude), the
 * previous sandbox plus only `--unshare-pid --unshare-ipc`, and the launcher's current plan
 * (namespaces, the descriptor-closing prelude, private temp, masks, read-only files in the root).
 * Reports medians and the ratios against the previous sandbox; the bound is that the pid
 * namespace adds at most 10 ms (median). Also the current plan in a repository tracking 40
 * executable files (16 bound read-only, 24 guarded by content), and the launcher's own work per
 * call (`plan` + `explain`) there, in one tracking 1,000 and in the plain repository. Report-only: nothing here gates CI.
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSandboxLauncher } from '@dsh/permissions'
import { median } from './stats.ts'

function timeSpawn(file: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = process.hrtime.bigint()
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...args], { stdio: 'ignore', env })
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`${file} exited with ${String(code)}`))))
  })
}

/** Runs the comparison; returns the report lines. */
export async function sandboxStartBench(rounds: number): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), 'dsh-bench-sandbox-'))
  const repo = join(root, 'repo')
  mkdirSync(join(repo, '.git', 'hooks'), { recursive: true })
  // A repository whose index records 40 executable files.
  const scripts = join(root, 'scripts-repo')
  mkdirSync(join(scripts, 'bin'), { recursive: true })
  execFileSync('git', ['init', '-q', scripts])
  for (let n = 0; n < 40; n++) writeFileSync(join(scripts, 'bin', `tool-${n}`), `#!/bin/sh\necho ${n}\n`, { mode: 0o755 })
  execFileSync('git', ['-C', scripts, 'add', '.'])
  // And one tracking 1,000 (the most dsh protects).
  const many = join(root, 'many-repo')
  mkdirSync(join(many, 'bin'), { recursive: true })
  execFileSync('git', ['init', '-q', many])
  for (let n = 0; n < 1000; n++) writeFileSync(join(many, 'bin', `tool-${n}`), `#!/bin/sh\necho ${n}\n`, { mode: 0o755 })
  execFileSync('git', ['-C', many, 'add', '.'])
  const makeLauncher = () => createSandboxLauncher({ mode: 'full-auto', network: true, secretVariables: [], env: process.env, tempDir: root, home: root, dshHome: join(root, 'dsh'), uid: process.getuid?.() ?? -1, warn: () => undefined, interactive: false })
  const launcher = makeLauncher()
  // One launcher per repository for its own work: a launcher guards every executable it has seen.
  const own = { plain: makeLauncher(), scripts: makeLauncher(), many: makeLauncher() }
  try {
    if (!launcher.available()) return ['sandbox start: skipped (bubblewrap unavailable)']
    const previous = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--cap-drop', 'ALL', '--bind-try', repo, repo, '--bind-try', root, root, '--die-with-parent', '--chdir', repo, '--', 'bash', '-c', 'true']
    const withPid = ['--unshare-pid', '--unshare-ipc', ...previous]
    const request = (cwd: string) => ({ file: 'bash', args: ['-c', 'true'], cwd, env: process.env, writableRoots: [cwd, root] })
    const plan = launcher.plan(request(repo))
    const scriptsPlan = launcher.plan(request(scripts))
    const ways: Record<string, () => Promise<number>> = {
      'no sandbox': () => timeSpawn('bash', ['-c', 'true'], process.env),
      'previous sandbox (shared pid namespace)': () => timeSpawn('bwrap', previous, process.env),
      'previous + --unshare-pid --unshare-ipc': () => timeSpawn('bwrap', withPid, process.env),
      'current plan (namespaces, prelude, masks)': () => timeSpawn(plan.file, plan.args, plan.env),
      'current plan, 40 tracked executables': () => timeSpawn(scriptsPlan.file, scriptsPlan.args, scriptsPlan.env),
    }
    const samples: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((name) => [name, []]))
    const names = Object.keys(ways)
    for (let round = 0; round < rounds + 3; round += 1) {
      const order = round % 2 === 0 ? names : names.toReversed()
      for (const name of order) {
        const ms = await (ways[name] ?? (() => Promise.resolve(0)))()
        if (round >= 3) samples[name]?.push(ms)
      }
    }
    const medians = Object.fromEntries(names.map((name) => [name, median(samples[name] ?? [])]))
    const base = medians['previous sandbox (shared pid namespace)'] ?? 1
    const lines = [`sandbox start per shell call (${rounds} rounds after 3 warm-up, alternated; median wall ms, spawn to exit of true):`]
    for (const name of names) lines.push(`  ${name.padEnd(44)} ${(medians[name] ?? 0).toFixed(2).padStart(7)} ms   ×${((medians[name] ?? 0) / base).toFixed(2)} vs previous`)
    const added = (medians['previous + --unshare-pid --unshare-ipc'] ?? 0) - base
    lines.push(`  pid + IPC namespaces add ${added.toFixed(2)} ms (target: ≤ 10 ms): ${added <= 10 ? 'met' : 'NOT met'}`)
    // The launcher's own work per call (plan before the spawn, explain after it), alternated.
    const ownMs: Record<string, number[]> = { plain: [], scripts: [], many: [] }
    const repos = [['plain', repo], ['scripts', scripts], ['many', many]] as const
    for (let round = 0; round < rounds + 3; round += 1) {
      for (const [name, cwd] of round % 2 === 0 ? repos : repos.toReversed()) {
        const started = performance.now()
        own[name].explain('', own[name].plan(request(cwd)))
        if (round >= 3) ownMs[name]?.push(performance.now() - started)
      }
    }
    const plainOwn = median(ownMs['plain'] ?? [])
    const scriptsOwn = median(ownMs['scripts'] ?? [])
    const manyOwn = median(ownMs['many'] ?? [])
    lines.push(`  launcher's own work per call (plan + explain): plain repository ${plainOwn.toFixed(2)} ms, 40 tracked executables ${scriptsOwn.toFixed(2)} ms (×${(scriptsOwn / plainOwn).toFixed(2)}), 1,000 ${manyOwn.toFixed(2)} ms (×${(manyOwn / plainOwn).toFixed(2)})`)
    return lines
  } finally {
    launcher.dispose()
    for (const each of Object.values(own)) each.dispose()
    rmSync(root, { recursive: true, force: true })
  }
}
