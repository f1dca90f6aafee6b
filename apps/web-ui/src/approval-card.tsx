/** A permission question: why the policy asks, the code to run and three buttons (allow once, always, reject). */
import type { JSX } from 'preact'
import type { ApprovalView } from './api-types.ts'
import { useStrings } from './i18n.ts'

export type Choice = 'once' | 'always' | 'reject'

export function ApprovalCard(props: { readonly approval: ApprovalView; readonly answer: (choice: Choice) => void }): JSX.Element {
  const t = useStrings()
  const { approval } = props
  const always = approval.always.kind === 'command-prefix' ? t.allowAlwaysPrefix(approval.always.prefix) : t.allowAlwaysTool(approval.tool)
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
        <button type="button" onClick={() => props.answer('always')}>
          {always}
        </button>
        <button type="button" class="danger" onClick={() => props.answer('reject')}>
          {t.reject}
        </button>
      </div>
    </section>
  )
}
