/**
 * The "allow always" approvals of one session: command prefixes of `bash`, hosts of `web_fetch` and whole tools that a
 * person approved for the rest of the session. The tool pipeline records what an `allow-always`
 * answer covers (the chat's `/status` shows it); it does not skip questions: the permission
 * policy's session rules allow what such an answer covers, and a call the policy still asks about
 * (a shell command with no sandbox) is asked about every time. It lives in memory with its agent.
 */
import type { ApprovalScope, ToolExecution } from '@dsh/contracts'
import { fetchHost, stringArgument } from './call-arguments.ts'
import { commandPart, isReservedWord, runsOtherCommands } from './command-words.ts'

/** Shell syntax that chains, redirects or substitutes: such a command never matches a prefix. */
const compound = /[;&|<>`\n\r]|\$\(/

/** True for a single simple command (no chaining, piping, redirection or substitution). */
export function isSimpleCommand(command: string): boolean {
  return !compound.test(command)
}

/**
 * The prefix an "always" approval of `command` would cover: the program and, when the second word
 * looks like a subcommand (`git status`, `npm test`), that word too; reserved words before the
 * program are not part of it (`time npm test` → `npm test`, as allow rules read it). `undefined`
 * for commands that are not simple, that run nothing, whose program is quoted, escaped or an option
 * left by a reserved word (`time -p …`), or whose
 * program runs other commands (`timeout`, `env`, `sudo`, `xargs`, `bash -c`, …: command-words.ts),
 * which are only ever approved once.
 */
export function suggestedPrefix(command: string): string | undefined {
  if (!isSimpleCommand(command)) return undefined
  const part = commandPart(command)
  if (part.kind !== 'command') return undefined
  const words = part.text.split(' ')
  // Assignments before the program stay in the prefix (`FOO=1 npm test`): they change what runs.
  let at = 0
  while (at < words.length - 1 && /^[A-Za-z_]\w*=\S*$/.test(words[at] ?? '')) at += 1
  const program = words[at]
  const second = words[at + 1]
  if (program === undefined || program === '' || /["'\\$=]/.test(program) || program.startsWith('-') || runsOtherCommands(program) || isReservedWord(program)) return undefined
  const head = words.slice(0, at + 1).join(' ')
  return second !== undefined && /^[a-z][\w:.-]*$/i.test(second) ? `${head} ${second}` : head
}

/** Approvals remembered for one session. */
export class ApprovalMemory {
  readonly #tools = new Set<string>()
  readonly #prefixes = new Set<string>()
  readonly #hosts = new Set<string>()

  /** True when an earlier "always" answer covers this call. */
  covers(execution: ToolExecution): boolean {
    if (this.#tools.has(execution.name)) return true
    if (execution.name === 'web_fetch') {
      const url = stringArgument(execution, 'url')
      const host = url === undefined ? undefined : fetchHost(url)
      return host !== undefined && this.#hosts.has(host)
    }
    if (execution.name !== 'bash') return false
    const command = stringArgument(execution, 'command')
    if (command === undefined || !isSimpleCommand(command)) return false
    const trimmed = command.trim()
    for (const prefix of this.#prefixes) if (trimmed === prefix || trimmed.startsWith(`${prefix} `)) return true
    return false
  }

  /** Remembers an "always" answer for this call. A prefix scope applies to `bash` only. */
  remember(execution: ToolExecution, scope: ApprovalScope): void {
    switch (scope.kind) {
      case 'tool':
        this.#tools.add(execution.name)
        return
      case 'command-prefix':
        if (execution.name === 'bash' && scope.prefix.trim() !== '') this.#prefixes.add(scope.prefix.trim())
        return
      case 'command-prefixes':
        if (execution.name === 'bash') for (const prefix of scope.prefixes) if (prefix.trim() !== '') this.#prefixes.add(prefix.trim())
        return
      case 'domain':
        if (execution.name === 'web_fetch' && scope.host !== '') this.#hosts.add(scope.host.toLowerCase())
        return
      default: {
        const unreachable: never = scope
        throw new Error(`unknown approval scope ${JSON.stringify(unreachable)}`)
      }
    }
  }

  /** What is remembered, one line each (`bash: npm test …`, `tool: run_code`), for status displays. */
  describe(): string[] {
    return [...[...this.#prefixes].map((prefix) => `bash: ${prefix} …`), ...[...this.#hosts].map((host) => `web_fetch: ${host}`), ...[...this.#tools].map((tool) => `tool: ${tool}`)]
  }
}
