/**
 * Model-visible text of the three denials: the precedent gate, the intent gate and the
 * read-only rule for operator documents. Each is a `deny` verdict: its `reason` is shown inside
 * the tool pipeline's own "The <tool> call was denied: …." sentence (so none ends with a full
 * stop), and the two gates whose denial is lifted by doing something first carry a `recovery`
 * sentence that replaces the pipeline's "Do not retry it unchanged" advice. The operator-document
 * denial has no escape, so it keeps that advice.
 */
import type { PreExecuteVerdict } from '@dsh/contracts'

/** A denial verdict. */
export type Denial = Extract<PreExecuteVerdict, { readonly kind: 'deny' }>

/** How a call is named in a denial: shell tools run commands, other tools are calls. */
function action(tool: string, shell: boolean): string {
  return shell ? `${tool} command` : `${tool} call`
}

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
export function precedentDenial(input: PrecedentDenialInput): Denial {
  const shell = input.shellStatement !== undefined
  const attempt = shell || (input.tool !== 'write' && input.tool !== 'edit') ? `this ${action(input.tool, shell)} would change "${input.target}"` : `you are about to ${input.tool} "${input.target}"`
  const head = `Blocked by maintainer-doc-guard: ${attempt}, which lies in a guarded infrastructure area, and this session has not read a working "${input.basename}" that shows the real contract.`
  const list =
    input.candidates.length > 0
      ? `Read one of these first, then retry:\n\n${input.candidates.map((path) => `- ${path}`).join('\n')}`
      : 'No working sibling was found nearby. Read the closest working analogue of this kind of file (or the source of the API it plugs into), then retry.'
  const because =
    input.shellStatement === undefined
      ? []
      : [`This verdict comes from the command text: the statement \`${input.shellStatement}\` writes "${input.target}". Commands that only read are never blocked.`]
  const why =
    'Why: infrastructure written from memory is how invented APIs reach a running harness. If the file already exists, read it; if you are creating it, read a working sibling. The analogue you copy from is what keeps the new file consistent with the real API'
  return {
    kind: 'deny',
    reason: [head, list, ...because, why].join('\n\n'),
    recovery: input.candidates.length > 0 ? 'Once you have read one of them, retry the same call.' : 'Once you have read a working analogue, retry the same call.',
  }
}

/** Denial of the intent gate. */
export function intentDenial(tool: string, shell: boolean): Denial {
  return {
    kind: 'deny',
    reason: `Blocked by maintainer-doc-guard: you are about to run this ${action(tool, shell)} without having said what this step is for. Start with one short line that answers three things: what this step achieves, why it is needed now, and what result you expect and how you will tell. If you cannot state its value, ask the user instead of running it`,
    recovery: 'Once you have written that line, retry the same call.',
  }
}

/** Inputs of {@link operatorDocDenial}. */
export interface OperatorDocDenialInput {
  readonly tool: string
  /** True for a shell command. */
  readonly shell: boolean
  /** The document (or the folder holding operator documents) as shown to the model. */
  readonly target: string
  /** True when the target is a folder that holds operator documents. */
  readonly folder: boolean
  /** The ledger as shown to the model. */
  readonly ledger: string
}

/** Denial of a write to an operator document; no recovery, so the pipeline's "do not retry" advice stands. */
export function operatorDocDenial(input: OperatorDocDenialInput): Denial {
  const what = input.folder
    ? `"${input.target}" holds operator documents, and operator documents are read-only to you (this ${action(input.tool, input.shell)} would change them). Reading other copies of them does not lift this rule.`
    : `"${input.target}" is an operator document, and operator documents are read-only to you (this ${action(input.tool, input.shell)} would change it). Reading another copy of it does not lift this rule.`
  return {
    kind: 'deny',
    reason: [
      `Blocked by maintainer-doc-guard: ${what}`,
      `Record what you learned in the document you own instead, the lessons ledger ${input.ledger}, one line per lesson:\n- mistake: …｜why: …｜correct: …｜trigger: <tool> + <path fragment>｜YYYY-MM-DD`,
      'If the operator document itself has to change, tell the user what to change. Only the operator can lift this rule (gate.operatorDocsReadOnly: false in the configuration, or the operatorDocsReadOnly switch)',
    ].join('\n\n'),
  }
}
