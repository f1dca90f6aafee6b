/**
 * The rows of a hook listing (`dsh hooks list`, the chat's `/hooks`): per hook its event, matcher,
 * conditions and command, then where it comes from, its time limit and whether it runs. `trust`
 * names the way to trust an untrusted project file in the surface that prints it. Also the answer
 * of `dsh hooks trust` and `/hooks trust`.
 */
import { projectHookFiles, trustProjectHooks, type HookEntry, type HookSet } from '@dsh/hooks'

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

/**
 * Pins the project hook files of `cwd` (`trustProjectHooks`) and says so, one line per file, each
 * ending with `runs` (when its hooks run); a line saying there are none when there are none.
 */
export function trustLines(cwd: string, dshHome: string, runs: string): string[] {
  const trusted = trustProjectHooks(cwd, dshHome)
  if (trusted.length === 0) return [`no project hook files in ${cwd} (${projectHookFiles(cwd).join(', ')})`]
  return trusted.map((file) => `trusted ${file.file} (sha256 ${file.digest.slice(0, 12)}…): its hooks run ${runs}`)
}
