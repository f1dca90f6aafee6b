/**
 * The facts of one call that the gates judge: its shell dialect and command, its canonical path
 * target, the files it would write for the precedent gate (the path of a gated or destructive
 * tool, or every file a shell command writes) and for the operator-documents rule (the path of
 * any document-writing tool, or what a shell command writes, or the document a `doc_write` tool
 * names).
 */
import type { FileSystemPort, ToolExecution } from '@dsh/contracts'
import { namedOperatorDocument, writesDocuments } from './operator-docs.ts'
import type { WriteTarget } from './precedent-gate.ts'
import type { ResolvedConfig } from './resolve-config.ts'
import { shellWrites } from './shell-writes.ts'
import type { ShellDialect } from './shell-statements.ts'
import { commandArgument, isDestructiveTool, pathArgument, shellDialect } from './tool-targets.ts'

/** What the gates know about a call. */
export interface CallFacts {
  readonly tool: string
  readonly args: unknown
  readonly dialect: ShellDialect | undefined
  readonly command: string | undefined
  /** Canonical path argument. */
  readonly target: string | undefined
  readonly gateTargets: readonly WriteTarget[]
  readonly documentTargets: readonly WriteTarget[]
  /** An operator document named by a `doc_write`-style tool. */
  readonly namedDocument: string | undefined
}

const WINDOWS = /^[A-Za-z]:\//u

/** Collects the facts of `execution` in `cwd`. */
export async function callFacts(fs: FileSystemPort, execution: ToolExecution, cwd: string, config: ResolvedConfig): Promise<CallFacts> {
  const tool = execution.name
  const args = execution.arguments
  const canonical = async (path: string): Promise<string> => (WINDOWS.test(path) ? path : (await fs.resolve(path, { cwd, signal: execution.signal })).path)
  const dialect = shellDialect(tool)
  const command = dialect === undefined ? undefined : commandArgument(args)
  const raw = dialect === undefined ? pathArgument(args, cwd) : undefined
  const target = raw === undefined ? undefined : await canonical(raw)
  const destructive = isDestructiveTool(tool)
  let shell: WriteTarget[] = []
  if (dialect !== undefined && command !== undefined) {
    shell = await Promise.all(shellWrites(command, dialect, cwd).map(async (write) => ({ path: await canonical(write.path), shellStatement: write.statement })))
  }
  const own = (applies: boolean): WriteTarget[] => (applies && target !== undefined ? [{ path: target }] : [])
  return {
    tool,
    args,
    dialect,
    command,
    target,
    gateTargets: dialect === undefined ? own(config.gate.tools.includes(tool) || destructive) : shell,
    documentTargets: dialect === undefined ? own(writesDocuments(tool, config.gate.tools) || destructive) : shell,
    namedDocument: tool.endsWith('doc_write') ? namedOperatorDocument(args) : undefined,
  }
}
