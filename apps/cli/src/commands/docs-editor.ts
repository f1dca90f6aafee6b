/**
 * The `$EDITOR` session of `dsh docs edit NAME`: the document is written to a private temp file,
 * the editor runs on it (asynchronously, so dsh stays responsive to signals), and the edited text
 * comes back. A SIGTERM, SIGHUP or SIGINT that reaches dsh while the editor runs is passed on to
 * the editor, so it ends with dsh; when it has ended, an edit already made is never lost: the temp
 * file is kept and its path is printed. A save that fails afterwards keeps the file the same way.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signalExitCodes, type ShutdownSignal } from '../shutdown.ts'
import { CliError, usageError } from '../cli-error.ts'
import type { CliIo } from '../cli-io.ts'

/** What the editor left. */
export type EditorOutcome =
  | { readonly kind: 'edited'; readonly content: string; readonly file: string; readonly discard: () => void }
  /** dsh got `signal` while the editor ran; `kept` is the edited file when there was an edit. */
  | { readonly kind: 'interrupted'; readonly signal: ShutdownSignal; readonly exitCode: number; readonly kept?: string }

const SIGNALS: readonly ShutdownSignal[] = ['SIGTERM', 'SIGHUP', 'SIGINT']

/** Runs `$VISUAL`/`$EDITOR` on a temp copy of `current`. */
export async function editInEditor(io: CliIo, name: string, current: string): Promise<EditorOutcome> {
  const editor = io.env['VISUAL'] ?? io.env['EDITOR']
  if (editor === undefined || editor.trim() === '') throw usageError(`docs edit ${name}: set $EDITOR (or $VISUAL), or pass --from FILE`)
  const dir = mkdtempSync(join(tmpdir(), 'dsh-docs-'))
  const file = join(dir, name.replaceAll('/', '-'))
  const discard = (): void => rmSync(dir, { recursive: true, force: true })
  writeFileSync(file, current)
  let received: ShutdownSignal | undefined
  let child: ChildProcess | undefined
  // The handlers are in place before the editor starts: a signal that came between the spawn and
  // them would have ended dsh at once (the default action) and left the editor running.
  const handlers = SIGNALS.map((signal) => {
    const handler = (): void => {
      received ??= signal
      // The editor ends with dsh; what it wrote is looked at once it has exited.
      if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill(signal)
    }
    process.on(signal, handler)
    return () => process.off(signal, handler)
  })
  let status: { code: number | null; signal: NodeJS.Signals | null }
  try {
    const editorProcess = spawn('sh', ['-c', `exec ${editor} "$1"`, 'sh', file], { stdio: 'inherit', env: { ...io.env } })
    child = editorProcess
    status = await new Promise((resolve, reject) => {
      editorProcess.on('error', reject)
      editorProcess.on('close', (code, signal) => resolve({ code, signal }))
    })
  } catch (error) {
    discard()
    throw new CliError(`docs edit ${name}: the editor could not be started: ${error instanceof Error ? error.message : String(error)}; nothing was saved`)
  } finally {
    for (const off of handlers) off()
  }
  if (received !== undefined) {
    const edited = readFileSync(file, 'utf8')
    if (edited === current) discard()
    return { kind: 'interrupted', signal: received, exitCode: signalExitCodes[received], ...(edited === current ? {} : { kept: file }) }
  }
  if (status.code !== 0) {
    discard()
    throw new CliError(`docs edit ${name}: the editor exited with ${status.code ?? status.signal ?? 'an error'}; nothing was saved`)
  }
  return { kind: 'edited', content: readFileSync(file, 'utf8'), file, discard }
}
