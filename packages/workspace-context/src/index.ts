/** Public surface of @dsh/workspace-context (curated re-exports only). */
export { createWorkspaceContextPlugin, workspaceContextPlugin, type WorkspaceContextHooks } from './plugin.ts'
export { Config, resolveConfig, baselineIdentity, type ConfigInput, type ResolvedConfig, type ResolveEnvironment } from './config.ts'
export { isSameDirectoryName, filterCandidateNames } from './candidate-names.ts'
export { PLUGIN_NAME, instructionMessage, type InstructionMessageInput } from './message.ts'

// Discovery and rendering building blocks (reused by multi-root-workspace for additional roots).
export { findProjectRoot, type ProjectRoot } from './project-root.ts'
export { chainDirs, descendantDirs, relKey, absOf, displayPath, type DirRef } from './directories.ts'
export { discover, orderDirs, type DiscoveryPlan, type DiscoveryResult, type PassOptions } from './discovery.ts'
export { examineDirectory, type DirectoryExamination, type DirectorySpec, type ExamineOptions } from './directory-examiner.ts'
export { probeCandidate, type LinkPolicy } from './probe.ts'
export { readBounded, type ReadOutcome } from './bounded-read.ts'
export { VersionMemo } from './version-memo.ts'
export { isInsideRoot, isInsideAny } from './trusted-roots.ts'
export { projectScope, userGlobalScope, decodeScope, specificity, USER_GLOBAL_SCOPE, type ScopeRef } from './scope-key.ts'
export { contentDigest, trimmedDigest } from './digest.ts'
export { escapeFrameText, unescapeFrameText } from './escape.ts'
export { layoutWithinBudget, type LayoutSection, type LayoutResult } from './budget.ts'
export { renderBaseline, renderChangeBatch, type RenderedBaseline, type RenderedChanges } from './render.ts'
export { reconcile, type ReconcileInput, type ReconcileResult } from './reconcile.ts'
export { deriveVisibleState, instructionSource, hasLoggedBaseline, type VisibleState, type EffectiveEntry } from './visible-state.ts'
export type { CandidateProbe, ScopeObservation, LoadedFile, ChangeItem, UnavailableReason, AbsentNote } from './types.ts'
export * as frames from './frames.ts'

// Library functions behind `dsh context` and `dsh context why`.
export { inspectContext, type InspectOptions, type ContextReport, type CandidateReport, type CandidateState } from './inspect.ts'
export { formatContextReport } from './format-report.ts'
export { explainPath, formatExplanation, type ExplainOptions, type PathExplanation, type ExplainedFile } from './explain.ts'
