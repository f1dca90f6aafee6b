// Offline demo: copies the example monorepo to a temporary directory, runs the built dsh binary on
// it with the scripted model (no key, no network), prints what the model saw and what dsh context
// reports, explains what to look at, and removes the temporary directory at the end (also when a
// step fails).
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = fileURLToPath(new URL('..', import.meta.url))
const dsh = join(repo, 'node_modules/.bin/dsh')
if (!existsSync(join(repo, 'apps/cli/dist/dsh.mjs'))) {
  process.stderr.write('demo: the CLI is not built yet: run `npm run build` first\n')
  process.exit(1)
}

const work = mkdtempSync(join(tmpdir(), 'dsh-demo-'))
const workspace = join(work, 'acme')
const home = join(work, 'home')
const run = (args) => execFileSync(dsh, ['--dsh-home', home, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
const heading = (title, explanation) => console.log(`\n== ${title} ==\n${explanation.map((line) => `   ${line}`).join('\n')}\n`)

let failed = false
try {
  cpSync(join(repo, 'examples/monorepo'), workspace, { recursive: true })
  mkdirSync(join(workspace, '.git')) // marks the project root, as a real checkout would
  cpSync(join(repo, 'examples/demo-home'), home, { recursive: true })
  console.log(`Working in a copy of examples/monorepo: ${workspace}`)
  console.log(`dsh home (sessions, the user-global AGENTS.md): ${home}`)

  const answer = run(['run', '--cwd', workspace, '--model', `scripted:${join(repo, 'examples/demo-script.json')}`, 'Make the API server say which service is listening.'])
  heading('1. dsh run: the final answer', ['The scripted model reads packages/api/src/server.ts, edits it, then reads packages/web/app.ts.'])
  console.log(answer.trimEnd())

  const id = JSON.parse(run(['sessions', 'list', '--json']))[0]?.id
  heading(`2. What the model saw in session ${id} (dsh sessions show ${id} --messages)`, [
    'Look for the "user (workspace-instructions)" messages:',
    '- right after the prompt: the baseline, the user-global AGENTS.md from the dsh home and the root AGENTS.md;',
    '- after the read of packages/api/src/server.ts: packages/api/AGENTS.md and its AGENTS.local.md overlay,',
    '  delivered the first time the agent worked in that directory;',
    '- after the read of packages/web/app.ts: packages/web/CLAUDE.md (that directory has no AGENTS.md).',
  ])
  console.log(run(['sessions', 'show', id, '--messages']).trimEnd())

  heading('3. dsh context --cwd packages/api: what a new session there would load', ['Every candidate file examined, with its state (loaded, absent, ...) and the byte budget.'])
  console.log(run(['context', '--cwd', join(workspace, 'packages/api')]).trimEnd())
} catch (error) {
  failed = true
  process.stderr.write(`demo failed: ${error.stderr ?? error.message ?? String(error)}\n`)
} finally {
  rmSync(work, { recursive: true, force: true })
  console.log(`\nRemoved ${work}.`)
}
process.exitCode = failed ? 1 : 0
