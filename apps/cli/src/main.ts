#!/usr/bin/env -S node --inspect-port=192.0.2.1:9229
/**
 * Process entry of the `dsh` binary: wires the real process streams into the CLI. A reader that
 * goes away (`dsh sessions list | head -1`) ends the process quietly with the exit code set so
 * far, as SIGPIPE ends other command-line tools, instead of an unhandled `EPIPE` stack trace; a
 * terminal that hangs up ends it as SIGHUP does (`terminal-hangup.ts`). The shebang's inspector
 * port is an address no host has, so a SIGUSR1 cannot open Node's inspector (see bin/dsh.mjs).
 */
import { fstatSync } from 'node:fs'
import { runCli } from './program.ts'
import type { StdinKind } from './stdin-text.ts'
import { hangUp, survivesTerminalHangup } from './terminal-hangup.ts'

function exitOnBrokenPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: Error) => {
    // EIO on a terminal: it hung up (a closed terminal window); any other write error is a real failure.
    const code = 'code' in error ? error.code : undefined
    if (code === 'EIO' && stream.isTTY) return hangUp()
    if (code !== 'EPIPE') throw error
    process.exit()
  })
}

/** What fd 0 is; a descriptor that cannot be examined (closed) has nothing to read. */
function stdinKind(): StdinKind {
  if (process.stdin.isTTY) return 'terminal'
  try {
    const stat = fstatSync(0)
    return stat.isFile() ? 'file' : stat.isFIFO() || stat.isSocket() ? 'pipe' : 'none'
  } catch (error) {
    // EBADF: the parent closed fd 0.
    if (error instanceof Error && 'code' in error && error.code === 'EBADF') return 'none'
    throw error
  }
}

survivesTerminalHangup()
exitOnBrokenPipe(process.stdout)
exitOnBrokenPipe(process.stderr)
const code = await runCli({ stdin: process.stdin, stdinKind, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() }, process.argv.slice(2))
process.exitCode = code
