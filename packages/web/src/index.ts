/** Public surface of @dsh/web (re-exports only). */
export { startWebHost, type WebHost, type WebHostOptions } from './web-host.ts'
export { createApprovalBridge, decisionOf, type ApprovalBridge, type ApprovalChoice, type ApprovalView } from './approval-bridge.ts'
export { historyItems, type HistoryItem } from './history-items.ts'
export { guardOffMessage } from './docs-routes.ts'
export type { StreamMessage, WebEnvironment, WebEvent } from './web-types.ts'
