// The MCP client the conformance suite drives (`conformance client --command …`): `dsh run`, the
// built binary with a scripted model, whose only MCP server is the suite's (the URL it appends as
// the last argument). The scripted model calls the tool each scenario is about; for `initialize`
// it calls a tool the server does not have, which makes the run wait for the server to connect.
// The test's temp directory comes in DSH_CONFORMANCE_DIR; dsh's exit code is this process's.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const dsh = fileURLToPath(new URL('../../../../node_modules/.bin/dsh', import.meta.url))
const calls = {
  initialize: { name: 'mcp__conformance__not_offered', arguments: {} },
  tools_call: { name: 'mcp__conformance__add_numbers', arguments: { a: 2, b: 3 } },
  'sse-retry': { name: 'mcp__conformance__test_reconnection', arguments: {} },
  'elicitation-sep1034-client-defaults': { name: 'mcp__conformance__test_client_elicitation_defaults', arguments: {} },
}
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? ''
const call = calls[scenario]
const url = process.argv.at(-1) ?? ''
const base = process.env.DSH_CONFORMANCE_DIR
if (call === undefined || base === undefined || !/^https?:\/\//.test(url)) {
  process.stderr.write(`dsh-client: unknown scenario ${JSON.stringify(scenario)}, DSH_CONFORMANCE_DIR unset, or no URL (${url})\n`)
  process.exit(2)
}
const dir = mkdtempSync(join(base, `${scenario}-`))
writeFileSync(join(dir, 'servers.json'), JSON.stringify({ mcpServers: { conformance: { type: 'http', url } } }))
writeFileSync(join(dir, 'script.json'), JSON.stringify({ responses: [{ toolCalls: [call] }, { text: 'done' }] }))
const run = spawnSync(process.execPath, [dsh, '--dsh-home', join(dir, 'home'), 'run', '--cwd', dir, '--model', `scripted:${join(dir, 'script.json')}`, '--mcp-config', join(dir, 'servers.json'), '--request-log', join(dir, 'requests.jsonl'), `conformance scenario ${scenario}`], { stdio: 'inherit' })
process.exit(run.status ?? 1)
