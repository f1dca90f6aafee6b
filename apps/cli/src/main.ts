#!/usr/bin/env node
/**
 * Process entry of the `dsh` binary: wires the real process streams into the CLI.
 */
import { runCli } from './program.ts'

const code = await runCli({ stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() }, process.argv.slice(2))
process.exitCode = code
