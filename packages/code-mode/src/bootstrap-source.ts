/**
 * Source of the program the snippet process runs (`node --input-type=module -e BOOTSTRAP`).
 *
 * It is a string constant because the CLI is bundled into a single file: there is no separate
 * script on disk at run time. The program speaks the protocol in `ipc-protocol.ts`: it announces
 * `ready`, receives `start`, compiles the snippet as the body of `async function (tools)`, runs it
 * with a `tools` proxy whose every property is an async function sending a `call`, and finishes
 * with one `done` before flushing stdout/stderr and exiting. Nested calls resolve to the result
 * text; failed ones reject with a `ToolCallError` carrying the pipeline's error text.
 *
 * Written with `String.raw` so regular-expression backslashes survive; the source must contain
 * no backticks and no `${`.
 */

/** The child program. Keep the omission marker identical to `output-capture.ts`. */
export const BOOTSTRAP = String.raw`
import { inspect } from 'node:util'
import vm from 'node:vm'

const AsyncFunction = (async () => {}).constructor
const pending = new Map()
let nextId = 0
let finished = false

class ToolCallError extends Error {
  constructor(tool, status, content) {
    super(content)
    this.name = 'ToolCallError'
    this.tool = tool
    this.status = status
    this.isError = true
    this.content = content
  }
}

function send(message, callback) {
  if (process.connected) process.send(message, callback)
  else if (callback) callback()
}

function callTool(name, args) {
  nextId += 1
  const id = nextId
  return new Promise((resolve, reject) => {
    pending.set(id, { name, resolve, reject })
    send({ type: 'call', id, name, args: args === undefined ? {} : args })
  })
}

const tools = new Proxy(Object.create(null), {
  get(_target, key) {
    if (typeof key !== 'string' || key === 'then') return undefined
    return (args) => callTool(key, args)
  },
})

function clip(text, max) {
  if (text.length <= max) return text
  const head = Math.floor(max / 2)
  const tail = max - head
  return text.slice(0, head) + '\n[… ' + (text.length - head - tail) + ' characters omitted …]\n' + text.slice(text.length - tail)
}

function render(value) {
  if (value === undefined) return undefined
  if (typeof value === 'string') return value
  try {
    const json = JSON.stringify(value, null, 2)
    if (json !== undefined) return json
  } catch {
    // BigInt values and cycles have no JSON form; util.inspect below renders them instead.
  }
  return inspect(value, { depth: 6 })
}

const evalFrame = /<anonymous>:(\d+):(\d+)\)/

function locate(error, offset) {
  const stack = typeof error.stack === 'string' ? error.stack : ''
  for (const frame of stack.split('\n')) {
    if (!frame.includes('eval at ')) continue
    const match = evalFrame.exec(frame)
    if (match) return { line: Number(match[1]) - offset, column: Number(match[2]) }
  }
  return {}
}

function syntaxLocation(code) {
  try {
    new vm.Script('(async function (tools) {\n' + code + '\n})', { filename: 'snippet.js', lineOffset: -1 })
  } catch (error) {
    const match = /^snippet\.js:(\d+)/.exec(String(error && error.stack))
    if (match) return { line: Number(match[1]) }
  }
  return {}
}

function describe(error, where) {
  if (error instanceof Error) {
    const described = { name: error.name, message: error.message, ...where }
    if (error instanceof ToolCallError) described.tool = error.tool
    return described
  }
  return { name: 'Thrown', message: render(error) ?? 'undefined' }
}

function finish(message) {
  if (finished) return
  finished = true
  send(message, () => {
    process.stdout.write('', () => process.stderr.write('', () => process.exit(0)))
  })
}

async function start(message) {
  const probe = new AsyncFunction('tools', 'return new Error().stack')
  const offset = (locate({ stack: await probe() }, 0).line ?? 3) - 1
  let snippet
  try {
    snippet = new AsyncFunction('tools', message.code)
  } catch (error) {
    finish({ type: 'done', ok: false, phase: 'compile', error: describe(error, syntaxLocation(message.code)) })
    return
  }
  try {
    const value = await snippet(tools)
    const rendered = render(value)
    finish(rendered === undefined ? { type: 'done', ok: true } : { type: 'done', ok: true, returned: clip(rendered, message.maxReturnChars) })
  } catch (error) {
    finish({ type: 'done', ok: false, phase: 'run', error: describe(error, error instanceof Error ? locate(error, offset) : {}) })
  }
}

process.on('message', (message) => {
  if (message === null || typeof message !== 'object') return
  if (message.type === 'start') {
    void start(message)
    return
  }
  if (message.type !== 'reply') return
  const call = pending.get(message.id)
  if (call === undefined) return
  pending.delete(message.id)
  if (message.isError) call.reject(new ToolCallError(call.name, message.status, message.content))
  else call.resolve(message.content)
})

process.on('disconnect', () => {
  if (!finished) process.exit(1)
})

send({ type: 'ready' })
`
