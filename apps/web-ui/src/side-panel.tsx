/**
 * The right-hand panel: tabs "Maintainer documents" (three views: documents, settings, templates;
 * or how to turn the guard on) and "Context". Documents are shown by default when the guard is on.
 * In a narrow window it is a drawer over the chat, starting with "Back to chat".
 */
import type { JSX } from 'preact'
import { useState } from 'preact/hooks'
import { ContextPanel } from './context-panel.tsx'
import type { DocDrafts } from './doc-drafts.ts'
import type { EventHub } from './event-hub.ts'
import { DocumentsPane } from './docs-documents.tsx'
import { SettingsPane } from './docs-settings.tsx'
import { TemplatesPane } from './docs-templates.tsx'
import { useStrings } from './i18n.ts'
import { onTabKeys } from './tab-keys.ts'

type Tab = 'docs' | 'context'
type View = 'documents' | 'settings' | 'templates'

function DocsPanel(props: { readonly sessionId: string; readonly off: string | null; readonly drafts: DocDrafts }): JSX.Element {
  const t = useStrings()
  const [view, setView] = useState<View>('documents')
  if (props.off !== null) return <p class="notice">{t.docsOff}</p>
  const views: readonly [View, string][] = [
    ['documents', t.viewDocuments],
    ['settings', t.viewSettings],
    ['templates', t.viewTemplates],
  ]
  return (
    <div class="docs-panel">
      <div class="segmented" role="group" aria-label={t.documentsTab}>
        {views.map(([id, label]) => (
          <button key={id} type="button" aria-pressed={view === id} onClick={() => setView(id)}>
            {label}
          </button>
        ))}
      </div>
      {view === 'documents' ? <DocumentsPane sessionId={props.sessionId} drafts={props.drafts} /> : view === 'settings' ? <SettingsPane sessionId={props.sessionId} /> : <TemplatesPane sessionId={props.sessionId} />}
    </div>
  )
}

export function SidePanel(props: { readonly sessionId: string; readonly docsOff: string | null; readonly drafts: DocDrafts; readonly hub: EventHub; /** Narrow window: the panel is a drawer; this hides it. */ readonly onHide?: (() => void) | undefined }): JSX.Element {
  const t = useStrings()
  const [tab, setTab] = useState<Tab>(props.docsOff === null ? 'docs' : 'context')
  const tabs: readonly [Tab, string][] = [
    ['docs', t.documentsTab],
    ['context', t.contextTab],
  ]
  return (
    <aside class="side" id="panel-drawer" aria-label={t.panel}>
      {props.onHide === undefined ? null : (
        <button type="button" class="drawer-back" onClick={props.onHide}>
          {t.backToChat}
        </button>
      )}
      <div role="tablist" class="side-tabs" aria-label={t.panel} onKeyDown={onTabKeys}>
        {tabs.map(([id, label]) => (
          <button key={id} type="button" role="tab" id={`side-${id}`} aria-selected={tab === id} aria-controls={`side-panel-${id}`} tabIndex={tab === id ? 0 : -1} onClick={() => setTab(id)}>
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`side-panel-${tab}`} aria-labelledby={`side-${tab}`} class="side-body">
        {tab === 'docs' ? <DocsPanel sessionId={props.sessionId} off={props.docsOff} drafts={props.drafts} /> : <ContextPanel sessionId={props.sessionId} hub={props.hub} />}
      </div>
    </aside>
  )
}
