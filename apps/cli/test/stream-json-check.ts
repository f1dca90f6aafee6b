// Validates dsh's stream-json lines against the shipped schema (schemas/stream-json.v1.schema.json)
// with ajv, and spawns the built binary reading its stdout line by line as it arrives.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { Ajv } from 'ajv'
import { dshBinary, testEnv } from './run-dsh.ts'

const schemaFile = new URL('../../../schemas/stream-json.v1.schema.json', import.meta.url)

// strictTypes off: the schema leaves `type: object` implied under `properties` (plain draft-07).
const validate = new Ajv({ allErrors: true, strictTypes: false }).compile(JSON.parse(readFileSync(schemaFile, 'utf8')))

/** One parsed line. */
export type Line = Readonly<Record<string, unknown>> & { readonly type: string }

/** Parses stdout into lines and throws, naming the line, when one does not fit the schema. */
export function checkedLines(stdout: string): Line[] {
  const lines = stdout.split('\n').filter((line) => line !== '')
  return lines.map((text, index) => checkedLine(text, index + 1))
}

/** Parses and validates one line. */
export function checkedLine(text: string, number: number): Line {
  const value: unknown = JSON.parse(text)
  if (!validate(value)) throw new Error(`line ${number} does not fit the schema: ${JSON.stringify(validate.errors?.slice(0, 4))}\n${text}`)
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- validated against the schema just above
  return value as Line
}

/** A running dsh whose stdout lines are read as they come. */
export interface LiveDsh {
  readonly child: ChildProcessWithoutNullStreams
  /** Resolves with the next validated line (rejects when stdout ended first). */
  nextLine(): Promise<Line>
  /** Resolves with the exit code, stdout lines not read yet, and stderr. */
  exit(): Promise<{ code: number | null; rest: Line[]; stderr: string }>
}

/** Spawns dsh with `args`, stdin a pipe the test writes to. */
export function spawnLive(args: readonly string[], options: { cwd: string; env?: Record<string, string> }): LiveDsh {
  const child = spawn(dshBinary, [...args], { cwd: options.cwd, env: testEnv(options.cwd, { NO_COLOR: '1', ...options.env }), stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const queue: string[] = []
  const waiters: { resolve: (line: string) => void; reject: (error: Error) => void }[] = []
  let ended = false
  let count = 0
  const lines = createInterface({ input: child.stdout })
  lines.on('line', (line) => {
    const waiter = waiters.shift()
    if (waiter === undefined) queue.push(line)
    else waiter.resolve(line)
  })
  const closed = new Promise<void>((resolve) => lines.on('close', resolve)).then(() => {
    ended = true
    for (const waiter of waiters.splice(0)) waiter.reject(new Error(`stdout ended\nstderr: ${stderr}`))
  })
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  const next = (): Promise<string> => {
    const line = queue.shift()
    if (line !== undefined) return Promise.resolve(line)
    if (ended) return Promise.reject(new Error(`stdout ended\nstderr: ${stderr}`))
    return new Promise((resolve, reject) => waiters.push({ resolve, reject }))
  }
  return {
    child,
    nextLine: async () => checkedLine(await next(), ++count),
    exit: async () => {
      const code = await exited
      await closed
      return { code, rest: queue.splice(0).map((line) => checkedLine(line, ++count)), stderr }
    },
  }
}
