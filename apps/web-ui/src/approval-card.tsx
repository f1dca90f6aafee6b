/**
 * A permission question: why the policy asks, the code to run and its answers: allow once, the
 * "always" on offer (a command prefix, a compound command's part prefixes, a fetch's host, or the whole tool),
 * the whole tool besides when the server offers it, and reject with an optional note for the model.
 */
import type { JSX } from 'preact'
import { useState } from 'preact/hooks'
import type { ApprovalView } from './api-types.ts'
import { useStrings, type Strings } from './i18n.ts'

export type Choice = 'once' | 'always' | 'always-tool' | 'reject'

function alwaysLabel(t: Strings, approval: ApprovalView): string | undefined {
  const always = approval.always
  if (always === undefined) return undefined
  switch (always.kind) {
    case 'command-prefix':
      return t.allowAlwaysPrefix(always.prefix)
    case 'command-prefixes':
      return t.allowAlwaysParts(always.prefixes)
    case 'domain':
      return t.allowAlwaysDomain(always.host)
    case 'tool':
      return t.allowAlwaysTool(approval.tool)
    default:
      return always satisfies never
  }
}

export function ApprovalCard(props: { readonly approval: ApprovalView; readonly answer: (choice: Choice, note?: string) => void }): JSX.Element {
  const t = useStrings()
  const { approval } = props
  const [note, setNote] = useState('')
  const always = alwaysLabel(t, approval)
  return (
    <section class="approval" role="alertdialog" aria-label={`${t.approvalTitle} ${approval.tool}`}>
      <h3>
        {t.approvalTitle} <code>{approval.tool}</code>
      </h3>
      {approval.reason === undefined ? null : <p class="reason">{approval.reason}</p>}
      <pre class="code">{approval.code}</pre>
      <div class="buttons">
        <button type="button" class="primary" onClick={() => props.answer('once')}>
          {t.allowOnce}
        </button>
        {always === undefined ? null : (
          <button type="button" onClick={() => props.answer('always')}>
            {always}
          </button>
        )}
        {approval.alwaysTool ? (
          <button type="button" onClick={() => props.answer('always-tool')}>
            {t.allowAlwaysWholeTool(approval.tool)}
          </button>
        ) : null}
        <button type="button" class="danger" onClick={() => props.answer('reject', note)}>
          {t.reject}
        </button>
      </div>
      <input class="reject-note" type="text" aria-label={t.rejectNote} placeholder={t.rejectNote} value={note} onInput={(event) => setNote(event.currentTarget.value)} />
    </section>
  )
}
