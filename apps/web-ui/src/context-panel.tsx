/** The Context tab: the instruction files active in the session (and why), the cwd's inspection, then the MCP servers with their states; read when shown and again after each turn. */
import type { JSX } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { failure, get, sessionPath } from './api.ts'
import type { ContextView } from './api-types.ts'
import type { EventHub } from './event-hub.ts'
import { useStrings } from './i18n.ts'

export function ContextPanel(props: { readonly sessionId: string; /** The page's event stream: the panel reads again when a turn of the session ends (it loads nested instruction files, connects servers). */ readonly hub: EventHub }): JSX.Element {
  const t = useStrings()
  const [view, setView] = useState<ContextView | undefined>()
  const [problem, setProblem] = useState<string | undefined>()
  const load = (): void => {
    get<ContextView>(sessionPath(props.sessionId, '/context'))
      .then(setView)
      .catch((error: unknown) => setProblem(failure(error)))
  }
  useEffect(load, [props.sessionId])
  useEffect(
    () =>
      props.hub.listen((message) => {
        if (message.kind === 'session' && message.session === props.sessionId && message.event.kind === 'busy' && !message.event.busy) load()
      }),
    [props.hub, props.sessionId],
  )
  return (
    <div class="context-panel">
      <button type="button" onClick={load}>
        {t.refresh}
      </button>
      {problem === undefined ? null : <p class="error">{problem}</p>}
      {view === undefined ? (
        <p>{t.loading}</p>
      ) : (
        <>
          <h3>{t.contextSession}</h3>
          <pre class="report">{view.session.join('\n')}</pre>
          <h3>{t.contextWorkspace}</h3>
          <pre class="report">{view.workspace.join('\n')}</pre>
          <h3>{t.mcpServers}</h3>
          {view.mcp.length === 0 ? (
            <p class="muted">{t.noMcpServers}</p>
          ) : (
            <table class="mcp-servers">
              <thead>
                <tr>
                  <th>{t.mcpName}</th>
                  <th>{t.mcpTransport}</th>
                  <th>{t.mcpSource}</th>
                  <th>{t.mcpState}</th>
                </tr>
              </thead>
              <tbody>
                {view.mcp.map((server) => (
                  <tr key={server.name} class={`mcp-${server.state.split(/[ ,:]/)[0] ?? ''}`}>
                    <td>{server.name}</td>
                    <td>{server.transport}</td>
                    <td>{server.source}</td>
                    <td class="mcp-state">{server.state}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </div>
  )
}
