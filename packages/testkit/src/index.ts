/** Public surface of the testkit. */
export { tempTree, type TempTree, type TreeSpec } from './temp-tree.ts'
export { composeTestHost, type TestHost, type TestHostOptions } from './compose-test-host.ts'
export { startSseServer, type Reply, type RecordedRequest, type SseServer } from './sse-server.ts'
export { deltaChunk, text, reasoning, finish, toolPiece, usage } from './sse-chunks.ts'
export { isProcessAlive } from './process-alive.ts'
export { driveClock, realDelay, realWaitFor } from './driven-clock.ts'
export { startDeepSeekServer, type DeepSeekServer } from './deepseek/deepseek-server.ts'
export type { DeepSeekAnswer, DeepSeekRequestView, DeepSeekFinishReason, DeepSeekRecord, DeepSeekServerOptions, DeepSeekStreamFault, DeepSeekCacheReport } from './deepseek/deepseek-types.ts'
