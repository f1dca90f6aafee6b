/**
 * A document that exists but is left out of the prompt (a link that leads outside the workspace,
 * a file too large or not UTF-8, a FIFO or a folder in its place) would otherwise vanish from what
 * the model sees without anyone being told. The operator gets one diagnostic line per location and
 * reason per session (stderr in the CLI); the model's listing simply does not name it.
 */
import type { DocumentSnapshot } from './document-snapshot.ts'
import { displayPath } from './document-roles.ts'

/** Warns about the problems of `snapshot` not warned about yet (`warned` remembers them). */
export function warnProblems(snapshot: DocumentSnapshot, warned: Set<string>, warn: (line: string) => void): void {
  for (const probe of snapshot.probes) {
    for (const problem of probe.problems) {
      const key = `${problem.path}\u0000${problem.reason}`
      if (warned.has(key)) continue
      warned.add(key)
      warn(`maintainer-doc-guard: ${displayPath(snapshot.place.cwd, problem.path)} is left out of the prompt: it is ${problem.reason}`)
    }
  }
}
