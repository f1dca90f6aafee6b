/**
 * Model-visible text of the three denials: the precedent gate, the intent gate and the
 * read-only rule for operator documents. Each is the `reason` of a `deny` verdict; the tool
 * pipeline shows it inside its own "The <tool> call was denied: …" sentence, so none ends with a
 * full stop.
 */

/** Inputs of {@link precedentDenial}. */
export interface PrecedentDenialInput {
  readonly tool: string
  /** Target as shown to the model. */
  readonly target: string
  readonly basename: string
  /** Candidates as shown to the model. */
  readonly candidates: readonly string[]
  /** The statement that writes the target, when the call was a shell command. */
  readonly shellStatement?: string
}

/** Denial of the precedent gate. */
export function precedentDenial(input: PrecedentDenialInput): string {
  const head = `Blocked by maintainer-doc-guard: you are about to ${input.tool} "${input.target}", which lies in a guarded infrastructure area, and this session has not read a working "${input.basename}" that shows the real contract.`
  const list =
    input.candidates.length > 0
      ? `Read one of these first, then retry:\n\n${input.candidates.map((path) => `- ${path}`).join('\n')}`
      : 'No working sibling was found nearby. Read the closest working analogue of this kind of file (or the source of the API it plugs into), then retry.'
  const shell =
    input.shellStatement === undefined
      ? []
      : [`This verdict comes from the command text: the statement \`${input.shellStatement}\` writes "${input.target}". Commands that only read are never blocked.`]
  const why =
    'Why: infrastructure written from memory is how invented APIs reach a running harness. If the file already exists, read it; if you are creating it, read a working sibling. The analogue you copy from is what keeps the new file consistent with the real API'
  return [head, list, ...shell, why].join('\n\n')
}

/** Denial of the intent gate. */
export function intentDenial(tool: string): string {
  return `Blocked by maintainer-doc-guard: you are about to run ${tool} without having said what this step is for. Start with one short line that answers three things: what this step achieves, why it is needed now, and what result you expect and how you will tell. Then issue the call again. If you cannot state its value, ask the user instead of running it`
}

/** Inputs of {@link operatorDocDenial}. */
export interface OperatorDocDenialInput {
  readonly tool: string
  /** The document as shown to the model. */
  readonly target: string
  /** The ledger as shown to the model. */
  readonly ledger: string
}

/** Denial of a write to an operator document. */
export function operatorDocDenial(input: OperatorDocDenialInput): string {
  return [
    `Blocked by maintainer-doc-guard: "${input.target}" is an operator document, and operator documents are read-only to you (this ${input.tool} would change it). Reading another copy of it does not lift this rule.`,
    `Record what you learned in the document you own instead, the lessons ledger ${input.ledger}, one line per lesson:\n- mistake: …｜why: …｜correct: …｜trigger: <tool> + <path fragment>｜YYYY-MM-DD`,
    'If the operator document itself has to change, tell the user what to change. Only the operator can lift this rule (gate.operatorDocsReadOnly: false in the configuration, or the operatorDocsReadOnly switch)',
  ].join('\n\n')
}
