// A small MCP server over stdio for the faults the real servers cannot produce. Plain JSON-RPC,
// one message per line. Modes (argv[2]):
//   tools   – tools `crash` (writes to stderr, then exits mid-call), `hang` (never answers),
//             `ok` (answers "ok"), `bad_schema` (an input schema of type string)
//   silent  – reads but never answers (a server that never finishes starting)
//   exit    – writes a line on stderr and exits at once
// With PID_FILE set it starts a grandchild (`sleep 1000`, as npx-style wrappers leave behind) and
// writes "<own pid> <grandchild pid>" there once running.
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createInterface } from 'node:readline'

const mode = process.argv[2] ?? 'tools'
if (mode === 'exit') {
  process.stderr.write('fault-server: cannot open the database\n')
  process.exit(3)
}
if (process.env.PID_FILE) {
  const child = spawn('sleep', ['1000'], { stdio: 'ignore' })
  writeFileSync(process.env.PID_FILE, `${process.pid} ${child.pid}`)
}
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`)
const tools = [
  { name: 'crash', description: 'Exits in the middle of the call.', inputSchema: { type: 'object', properties: {} } },
  { name: 'hang', description: 'Never answers.', inputSchema: { type: 'object', properties: {} } },
  { name: 'ok', description: 'Answers ok.', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } },
  { name: 'bad_schema', description: 'Its schema is not an object.', inputSchema: { type: 'string' } },
]
function answer(message) {
  switch (message.method) {
    case 'initialize':
      send({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'fault-server', version: '1.0.0' } } })
      break
    case 'tools/list':
      send({ jsonrpc: '2.0', id: message.id, result: { tools } })
      break
    case 'tools/call':
      if (message.params.name === 'crash') {
        process.stderr.write('fault-server: segfault in handler\n')
        process.exit(1)
      }
      // `hang` never answers.
      if (message.params.name !== 'hang') send({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'ok' }] } })
      break
    case 'ping':
      send({ jsonrpc: '2.0', id: message.id, result: {} })
      break
    default:
      send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `no method ${message.method}` } })
  }
}
createInterface({ input: process.stdin }).on('line', (line) => {
  if (mode === 'silent' || line.trim() === '') return
  const message = JSON.parse(line)
  if (message.id !== undefined) answer(message)
})
