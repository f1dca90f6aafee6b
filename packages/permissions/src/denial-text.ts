/**
 * The model-visible reasons and recovery sentences of permission verdicts (golden-tested; the
 * README quotes them). The pipeline renders a denial as
 * `The <tool> call was denied: <reason>. <recovery>`.
 */
import { relative } from 'node:path'
import type { PermissionMode, PermissionRule } from '@dsh/contracts'
import { isSimpleCommand, suggestedPrefix } from '@dsh/runtime'
import { callSubject } from './call-subject.ts'
import type { RuleCall } from './rule-match.ts'

/** A reason and the sentence that tells the model how to go on. */
export interface DenialText {
  readonly reason: string
  readonly recovery: string
}

const quoteArg = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`

/** The `--allow` rule that would allow this call (a command prefix, the exact command, the path, or the tool). */
export function suggestedRule(call: RuleCall): string {
  const subject = callSubject(call.tool, call.args, call.cwd)
  if (subject.kind === 'command') {
    const prefix = suggestedPrefix(subject.command)
    if (prefix !== undefined) return `${call.tool}(${prefix}:*)`
    // A program that runs other commands (`timeout 60 npm test`) gets no prefix: the command
    // itself, exactly, when a rule can spell it; else the tool.
    const exact = subject.command.trim().replace(/\s+/g, ' ')
    return isSimpleCommand(exact) && !/[*()]/.test(exact) && exact !== '' ? `${call.tool}(${exact})` : call.tool
  }
  if (subject.kind === 'path') {
    const inside = relative(call.cwd, subject.path)
    return `${call.tool}(${inside !== '' && !inside.startsWith('..') ? inside : subject.path})`
  }
  return call.tool
}

/** A deny rule matched. */
export function deniedByRule(rule: PermissionRule): DenialText {
  return {
    reason: `the permission rule ${JSON.stringify(rule.text)} denies it`,
    recovery: 'The user\'s deny rules forbid this; do not try to get around them. Choose another approach or ask the user.',
  }
}

/** `read-only` mode and a write. */
export function deniedReadOnly(): DenialText {
  return {
    reason: 'the permission mode is read-only, which allows no file changes',
    recovery: 'Answer without changing files; if changes are needed, tell the user they can allow them with --permission-mode auto-edit or full-auto.',
  }
}

/** `read-only` mode and an MCP tool its server does not annotate read-only. */
export function deniedReadOnlyMcp(): DenialText {
  return {
    reason: 'the permission mode is read-only, and this MCP tool is not annotated read-only by its server (readOnlyHint)',
    recovery: 'Use read-only tools instead; if this tool is needed, tell the user they can allow it with --permission-mode ask or --allow with the tool name.',
  }
}

/** The mode needs an answer and the front end (`dsh run`) cannot ask. */
export function deniedCannotAsk(mode: PermissionMode, call: RuleCall): DenialText {
  return {
    reason: `permission mode ${mode} needs the user's approval for ${call.tool}, and dsh run cannot ask`,
    recovery:
      `Tell the user that dsh run allows it with --allow ${quoteArg(suggestedRule(call))} or --permission-mode full-auto ` +
      '(shell commands stay sandboxed to the writable roots; --add-dir adds a root); meanwhile choose another approach.',
  }
}

/** No sandbox and a front end that cannot ask. */
export function deniedNoSandbox(): DenialText {
  return {
    reason: 'shell commands need the sandbox, which is not available here (bubblewrap is missing or cannot start), and dsh run does not run them unsandboxed',
    recovery:
      'Use read, glob, grep, write and edit instead; tell the user to install bubblewrap, or to run dsh run with --permission-mode danger-full-access to allow shell commands without a sandbox.',
  }
}

/** `read-only` mode, no sandbox, and a shell call: it cannot be kept read-only. */
export function deniedReadOnlyNoSandbox(): DenialText {
  return {
    reason: 'the permission mode is read-only and no sandbox is available to keep a shell command from writing (bubblewrap is missing or cannot start)',
    recovery: 'Use read, glob and grep instead; tell the user to install bubblewrap to allow shell commands in read-only mode.',
  }
}

/** Why a question is asked (shown with the question, and in a rejection). */
export function askReason(mode: PermissionMode, call: RuleCall, sandboxMissing: boolean): string {
  if (sandboxMissing) return `no sandbox is available, so ${call.tool} would run unsandboxed`
  return `permission mode ${mode} asks before ${call.tool === 'write' || call.tool === 'edit' ? 'writes outside the working directory' : `running ${call.tool}`}`
}

/** A write into dsh's own state (`$DSH_HOME`) where nobody can be asked. */
export function deniedProtected(dir: string): DenialText {
  return {
    reason: `the path is part of dsh's own settings and sessions (${dir}), which the model never changes without the user's approval, and dsh run cannot ask`,
    recovery: 'Do not try to change dsh\'s settings or session logs some other way; tell the user what change you suggest, and they can make it themselves.',
  }
}

/** Why a write into dsh's own state (`$DSH_HOME`) is asked. */
export function askReasonProtected(call: RuleCall, dir: string): string {
  return `${call.tool} would change dsh's own settings or sessions (${dir})`
}

/** A write outside every writable root, which the tool would refuse whatever the answer. */
export function deniedOutsideRoots(call: RuleCall, roots: readonly string[]): DenialText {
  const subject = callSubject(call.tool, call.args, call.cwd)
  const path = subject.kind === 'path' ? subject.path : call.tool
  return {
    reason: `${path} is outside every writable root of this session (${roots.join(', ')}), so no answer could let the ${call.tool} through`,
    recovery: 'Write inside one of the roots; if this file must change, tell the user that --add-dir DIR (or dsh roots add DIR) makes its directory a writable root.',
  }
}

/** A `read`/`grep`/`glob` of a secret location that no `read(...)` allow rule names. */
export function deniedSecretRead(call: RuleCall, location: string): DenialText {
  const subject = callSubject(call.tool, call.args, call.cwd)
  const path = subject.kind === 'path' ? subject.path : location
  return {
    reason: `${path} is inside ${location}, where credentials or dsh's session transcripts are kept, and ${call.tool} does not look there unless an allow rule names it`,
    recovery: `Do not try to reach it another way. If the task needs it, tell the user that --allow ${quoteArg(`read(${path})`)} (or a read(...) rule in the config) lets you read it.`,
  }
}

/** Why a write of a protected file (protected-files.ts) is asked. */
export function askReasonProtectedFile(call: RuleCall, shown: string, why: string): string {
  return `${call.tool} would change ${shown}, and ${why}`
}

/** A write of a protected file where nobody can be asked. */
export function deniedProtectedFile(call: RuleCall, shown: string, why: string): DenialText {
  return {
    reason: `${shown} is a file whose change takes effect outside the sandbox (${why}), which needs the user's approval, and dsh run cannot ask`,
    recovery: `Tell the user what change you suggest; dsh run allows it with --allow ${quoteArg(`${call.tool}(${shown})`)}. Meanwhile choose another approach.`,
  }
}

/** Why a shell call is asked although an allow rule covers it: a protected file changed unasked. */
export function askReasonTainted(call: RuleCall, shown: string): string {
  return `${shown} was changed in this session without a question, so allow rules no longer cover ${call.tool} calls (the change may alter what the command does)`
}

/** A shell call an allow rule would cover, after a protected file changed unasked, where nobody can be asked. */
export function deniedTainted(call: RuleCall, shown: string, why: string): DenialText {
  return {
    reason: `${shown} was changed in this session without a question (${why}), so the allow rules no longer cover ${call.tool} calls, and dsh run cannot ask`,
    recovery: 'Tell the user which command you wanted to run and why; they can review the change and run it themselves. Do not try to run it another way.',
  }
}

/** Why a read outside every root is asked in `ask` mode. */
export function askReasonReadOutside(call: RuleCall): string {
  return `permission mode ask asks before ${call.tool} looks outside the workspace`
}
