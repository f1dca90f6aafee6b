// Offline demo: copies the example monorepo to a temp dir, runs the built dsh binary on it with
// the scripted model, then prints what the model saw (the session's visible history).
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const repo = new URL('..', import.meta.url).pathname
const dsh = join(repo, 'node_modules/.bin/dsh')
const work = mkdtempSync(join(tmpdir(), 'dsh-demo-'))
const workspace = join(work, 'acme')
cpSync(join(repo, 'examples/monorepo'), workspace, { recursive: true })
mkdirSync(join(workspace, '.git'))
const home = join(work, 'home')
cpSync(join(repo, 'examples/demo-home'), home, { recursive: true })
const run = (args) => execFileSync(dsh, ['--dsh-home', home, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

console.log(`workspace: ${workspace} (a copy of examples/monorepo)\n`)
const cwd = workspace
let answer
try {
  answer = execFileSync(dsh, ['--dsh-home', home, 'run', '--cwd', cwd, '--model', `scripted:${join(repo, 'examples/demo-script.json')}`, 'Make the API server say which service is listening.'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
} catch (error) {
  process.stderr.write(error.stderr ?? String(error))
  process.exit(1)
}
console.log(`== dsh run answered ==\n${answer}`)
const sessions = JSON.parse(run(['sessions', 'list', '--json']))
const id = sessions[0]?.id
console.log(`== what the model saw in session ${id} ==`)
console.log(run(['sessions', 'show', id, '--messages']))
console.log(`== dsh context for packages/api ==`)
console.log(run(['context', '--cwd', join(workspace, 'packages/api')]))
