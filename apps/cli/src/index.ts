/** Public surface of the CLI package (for tests and embedding). */
export { runCli, buildProgram } from './program.ts'
export type { CliIo } from './cli-io.ts'
