// run_code failures: syntax errors, thrown errors, failed and refused nested calls, early exit, no node.
import { afterEach, describe, expect, it } from 'vitest'
import type { ToolExecution } from '@dsh/contracts'
import { fixture, type Fixture } from './helpers.ts'

let f: Fixture | undefined
afterEach(async () => {
  await f?.dispose()
  f = undefined
})

const unknownText = 'Unknown tool "nope". Call one of the available tools instead: read, run_code.'

describe('run_code errors', () => {
  it('a syntax error is an error result naming the snippet line, with a hint', async () => {
    f = await fixture()
    const outcome = await f.call('run_code', { code: 'const a = 1\nconst b = ;' })
    expect(outcome).toMatchObject({ isError: true, status: 'failed' })
    expect(outcome.content).toBe(
      "The snippet did not compile: SyntaxError: Unexpected token ';' (snippet line 2). The code runs as the body of an async function: use await and return directly, and load modules with await import('node:fs/promises') instead of import statements. Fix the code and call run_code again.\n\nNested tool calls: none",
    )
  })

  it('a thrown error is an error result with its message, location and the output so far', async () => {
    f = await fixture({ 'work/a.txt': 'A' })
    const outcome = await f.call('run_code', { code: "await tools.read({ file_path: 'a.txt' })\nconsole.log('halfway')\n  throw new Error('boom')" })
    expect(outcome.isError).toBe(true)
    expect(outcome.content).toBe(
      'The snippet threw Error: boom (snippet line 3, column 9). Fix the snippet and call run_code again; nested tool calls it made before the error already took effect.\n\nOutput:\nhalfway\n\nNested tool calls: read ✓',
    )
  })

  it('an unknown nested tool rejects with the pipeline error text, uncaught or caught', async () => {
    f = await fixture()
    const uncaught = await f.call('run_code', { code: 'return await tools.nope({})' })
    expect(uncaught.isError).toBe(true)
    expect(uncaught.content).toBe(
      `The snippet stopped because tools.nope failed: ${unknownText}\nA failed nested call rejects with a ToolCallError; catch it inside the snippet to handle the failure, or fix the call. Nested calls made before it already took effect.\n\nNested tool calls: nope ✗`,
    )
    const caught = await f.call('run_code', { code: 'try { await tools.nope({}) } catch (error) { return error.name + ": " + error.message }' })
    expect(caught).toMatchObject({ isError: false, content: `Returned:\nToolCallError: ${unknownText}\n\nNested tool calls: nope ✗` })
  })

  it('refuses run_code from inside a snippet without dispatching it', async () => {
    f = await fixture()
    const executions: ToolExecution[] = []
    f.host.ctx.on('tools/result', (exec) => {
      executions.push(exec)
    })
    const outcome = await f.call('run_code', { code: "try { await tools.run_code({ code: 'return 1' }) } catch (error) { return error.message }" })
    expect(outcome.content).toBe(
      'Returned:\nrun_code cannot be called from inside a run_code snippet. Do that work in this snippet directly, or make a separate run_code call after this one returns.\n\nNested tool calls: run_code ✗',
    )
    expect(executions.map((exec) => exec.callId)).toEqual(['top1'])
  })

  it('a snippet that exits the process early is an error result', async () => {
    f = await fixture()
    const outcome = await f.call('run_code', { code: "console.log('bye')\nprocess.exit(3)" })
    expect(outcome.isError).toBe(true)
    expect(outcome.content).toBe(
      'The snippet process exited with code 3 before the snippet finished. Return a value instead of calling process.exit(), and await every promise the snippet creates.\n\nOutput:\nbye\n\nNested tool calls: none',
    )
  })

  it('a missing Node.js binary is an error result', async () => {
    f = await fixture({}, { nodePath: '/nonexistent/node' })
    const outcome = await f.call('run_code', { code: 'return 1' })
    expect(outcome.isError).toBe(true)
    expect(outcome.content).toBe('run_code could not start Node.js (/nonexistent/node): spawn /nonexistent/node ENOENT. Use the other tools directly instead.\n\nNested tool calls: none')
  })
})
