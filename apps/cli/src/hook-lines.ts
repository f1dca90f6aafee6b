/**
 * The rows of a hook listing (`dsh hooks list`, the chat's `/hooks`): per hook its event, matcher,
 * conditions and command, then where it comes from, its time limit and whether it runs. `trust`
 * names the way to trust an untrusted project file in the surface that prints it.
 */
import type { HookEntry, HookSet } from '@dsh/hooks'

function trustState(entry: HookEntry, trust: string): string {
  if (entry.source.kind !== 'project') return 'yours'
  return entry.source.trusted ? 'trusted' : `untrusted (${trust})`
}

/** Two lines per hook, in the order the sources were read. */
export function hookLines(set: HookSet, trust: string): string[] {
  return set.all.flatMap((entry) => {
    const only = `${entry.condition === undefined ? '' : `  if ${entry.condition.text}`}${entry.once === true ? '  once' : ''}${entry.background === true ? '  async' : ''}`
    return [`${entry.event}  ${entry.matcher === '' ? '*' : entry.matcher}${only}  ${entry.command}`, `    ${entry.source.kind} ${entry.source.file}: ${entry.where}  timeout ${entry.timeoutMs / 1000} s  ${trustState(entry, trust)}`]
  })
}
