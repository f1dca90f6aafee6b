/**
 * Model-visible text of every notice the guard injects (user-role messages with a plugin
 * `notice` source, delivered at the next step): the intent nudge, the drift check, the
 * unread-documents reminder, ledger hits, the landing check, the completion standard, the
 * subagent-report reminder, and the off-topic correction of strict mode.
 */

const PREFIX = 'maintainer-doc-guard:'

/** The step-purpose nudge (instead of a denial); `deniesNext` when the next unexplained call will be denied. */
export function intentNudge(tool: string, deniesNext: boolean): string {
  const next = deniesNext ? ' The next unexplained call will be denied.' : ''
  return `${PREFIX} nothing was blocked this time; the ${tool} call ran. It came without a word on what the step is for. Before your next step, write one short line: what it achieves, why it is needed now, and what result you expect and how you will tell. If you cannot state its value, stop and ask the user.${next}`
}

/** The drift check. */
export function driftNudge(steps: number): string {
  return `${PREFIX} ${steps === 1 ? '1 step has' : `${steps} steps have`} run since the user last spoke. Restate in one line which part of the user's request the current step serves. If none does, stop and ask. If the plan has changed, say so and get agreement before you go on.`
}

/** First unread-documents reminder. */
export function unreadDocsNotice(paths: readonly string[]): string {
  return `${PREFIX} this session has documents with content you have not read:\n${paths.map((path) => `- ${path}`).join('\n')}\nListing is not reading. Open them before you go on: they are the operator's standing instructions and outrank your own inferences.`
}

/** Second unread-documents reminder, with excerpts. */
export function unreadDocsSecondNotice(excerpts: readonly { readonly path: string; readonly text: string; readonly truncated: boolean }[]): string {
  const blocks = excerpts.map((item) => [`--- begin ${item.path} ---`, item.text, ...(item.truncated ? ['(excerpt — open the file for the rest)'] : []), `--- end ${item.path} ---`].join('\n'))
  return [`${PREFIX} second reminder: these documents still have content you have not read. Excerpts follow; they are the operator's standing instructions.`, ...blocks].join('\n\n')
}

/** A ledger hit. */
export function ledgerNotice(tool: string, target: string, lines: readonly string[]): string {
  const what = target === '' ? tool : `${tool} on ${target}`
  return `${PREFIX} the lessons ledger has an entry for this kind of step (${what}):\n${lines.join('\n')}\nCompare its "correct" field with what you just did before you go on. If your situation really differs from the recorded one, ignore this and continue.`
}

/** The landing check for an edit that deletes numbers. */
export function contentNotice(target: string, before: number, after: number): string {
  return `${PREFIX} your edit of "${target}" removed numbers (${before} in the old text, ${after} in the new). If the deleted text carried a number or a conclusion, check that it lands somewhere else before the deletion stands, and say where. If you were only correcting a value in place, ignore this.`
}

/** The completion standard after code artifacts were written. */
export function verifyNotice(targets: readonly string[]): string {
  const what = targets.map((target) => `"${target}"`).join(', ')
  const it = targets.length === 1 ? 'it' : 'them'
  return `${PREFIX} you changed ${what}. Do not call ${it} done or fixed until you can state how you verified ${it}: the command you ran, the result you expected and the reading you actually got.`
}

/** The reminder after a subagent's report. */
export const CHILD_NOTICE = `${PREFIX} a subagent's report just came back. Treat it as input to verify, not as a conclusion: re-run the key readings before you adopt a number, a bound or a counterexample from it. Check the work tree (git status --short): a subagent told to stay read-only can still create files, because that was an instruction, not a sandbox. Next time, name the output path you want instead of only forbidding writes.`

/** The correction steered after an off-topic final answer. */
export function offTopicCorrection(reason: string): string {
  return `${PREFIX} your last message was judged off-topic for the instruction you are answering (${reason}), so the turn was not closed. Answer the instruction directly now; the previous message did not answer it.`
}
