/**
 * Combines the runs of one event's hooks (they ran in parallel) into one verdict, most restrictive
 * first: any block (exit 2, `decision: "block"`, `continue: false`, `permissionDecision: "deny"`)
 * wins over `ask`, which wins over going on. Guards fail closed: for PreToolUse a hook that timed
 * out or could not start blocks, with a reason that says so. Other exit codes, invalid JSON and
 * `systemMessage` are one-line messages for the person, never a block. A PreToolUse hook's
 * `updatedInput` replaces the call's whole input; two hooks that replace it differently block.
 */
import type { HookEventName, HookRun } from './hook-types.ts'
import { readOutput } from './hook-output.ts'

/** Characters of a hook's text that reach the model (Claude Code caps at 10,000 too). */
export const HOOK_TEXT_CAP = 10_000

/** What the hooks of one event decided. */
export interface HookVerdict {
  /** Set when a hook blocked: the reason, as the model or person reads it. */
  readonly block?: string
  /** Set when a hook asked for the person's approval (PreToolUse). */
  readonly ask?: string
  /** Set when a PreToolUse hook replaced the call's input (`updatedInput`): the new input and which hook. */
  readonly update?: { readonly input: unknown; readonly by: string }
  /** Texts to add to the model's context, in hook order. */
  readonly contexts: readonly string[]
  /** One-line messages for the person. */
  readonly messages: readonly string[]
}

const cap = (text: string): string => (text.length > HOOK_TEXT_CAP ? `${text.slice(0, HOOK_TEXT_CAP)} [… cut at ${HOOK_TEXT_CAP} characters]` : text)

/** Names a hook in messages. */
export function hookLabel(run: Pick<HookRun, 'entry'>): string {
  const command = run.entry.command.length > 80 ? `${run.entry.command.slice(0, 77)}...` : run.entry.command
  return `${run.entry.event} hook "${command}" (${run.entry.source.file}: ${run.entry.where})`
}

const firstLine = (text: string): string => text.trim().split('\n')[0] ?? ''

/** Combines `runs` of `event`; `background` runs guard nothing (a timeout or a failed start is a warning). */
export function combineRuns(event: HookEventName, runs: readonly HookRun[], background = false): HookVerdict {
  const guard = event === 'PreToolUse' && !background
  const plainContext = event === 'UserPromptSubmit' || event === 'SessionStart'
  const blocks: string[] = []
  const asks: string[] = []
  const contexts: string[] = []
  const messages: string[] = []
  const updates: { readonly input: unknown; readonly by: string }[] = []
  for (const run of runs) {
    const seconds = run.entry.timeoutMs / 1000
    switch (run.outcome) {
      case 'block':
        blocks.push(cap(run.stderr.trim() === '' ? `the ${hookLabel(run)} exited with 2` : run.stderr.trim()))
        continue
      case 'timeout':
        if (guard) blocks.push(`the ${hookLabel(run)} did not answer within ${seconds} s, and a guard that cannot answer blocks the call`)
        else messages.push(`warning: the ${hookLabel(run)} did not answer within ${seconds} s and was stopped`)
        continue
      case 'failed-to-start': {
        const detail = firstLine(run.stderr)
        const why = `could not run${run.exitCode === null ? '' : ` (exit ${run.exitCode})`}${detail === '' ? '' : `: ${detail}`}`
        if (guard) blocks.push(`the ${hookLabel(run)} ${why}, and a guard that cannot run blocks the call`)
        else messages.push(`warning: the ${hookLabel(run)} ${why}`)
        continue
      }
      case 'warning':
        messages.push(`warning: the ${hookLabel(run)} exited with ${run.exitCode ?? '?'}${firstLine(run.stderr) === '' ? '' : `: ${firstLine(run.stderr)}`}`)
        continue
      case 'ok':
        break
    }
    const output = readOutput(run.stdout)
    if (output.kind === 'invalid') {
      messages.push(`warning: the ${hookLabel(run)}: ${output.problem}; it is read as having said nothing`)
      continue
    }
    if (output.kind === 'text') {
      if (plainContext && output.text !== '') contexts.push(cap(output.text))
      continue
    }
    const json = output.json
    const specific = json.hookSpecificOutput
    if (json.systemMessage !== undefined) messages.push(`${run.entry.event} hook: ${firstLine(json.systemMessage)}`)
    if (json.continue === false) blocks.push(cap(json.stopReason ?? json.reason ?? `the ${hookLabel(run)} answered continue: false`))
    else if (json.decision === 'block') blocks.push(cap(json.reason ?? `the ${hookLabel(run)} blocked it`))
    if (specific?.permissionDecision === 'deny') blocks.push(cap(specific.permissionDecisionReason ?? `the ${hookLabel(run)} denied it`))
    if (specific?.permissionDecision === 'ask') asks.push(cap(specific.permissionDecisionReason ?? `the ${hookLabel(run)} asks for approval`))
    if (specific?.additionalContext !== undefined && specific.additionalContext.trim() !== '') contexts.push(cap(specific.additionalContext))
    if (specific?.updatedInput !== undefined) {
      if (guard) updates.push({ input: specific.updatedInput, by: `the ${hookLabel(run)}` })
      else messages.push(`warning: the ${hookLabel(run)} returned updatedInput, which only PreToolUse hooks can: it is ignored`)
    }
  }
  const distinct = new Set(updates.map((update) => JSON.stringify(update.input)))
  if (distinct.size > 1) blocks.push(`${updates.map((update) => update.by).join(' and ')} replaced its input in different ways, and dsh cannot choose one`)
  const update = distinct.size === 1 ? updates[0] : undefined
  return {
    ...(blocks.length === 0 ? {} : { block: blocks.join('; ') }),
    ...(update === undefined ? {} : { update }),
    ...(asks.length === 0 ? {} : { ask: asks.join('; ') }),
    contexts,
    messages,
  }
}
