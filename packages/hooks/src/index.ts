/** Public surface of the hooks plugin. */
export { createHooksPlugin, type HooksPluginOptions, type HooksService } from './hooks-plugin.ts'
export { createHookRunner, type HookRunner, type HookRunnerOptions, type HookTarget } from './hook-runner.ts'
export { loadHookSet, runnable, type HookSet, type HookSetInputs } from './hook-set.ts'
export { readProjectHooks, trustProjectHooks, projectHookFiles, trustFile, type ProjectHookFile } from './project-hooks.ts'
export { parseHooks, compileMatcher, DEFAULT_HOOK_TIMEOUT_S, DEFAULT_MAX_STOP_CONTINUES, type ParsedHooks } from './parse-hooks.ts'
export { runHook, HOOK_OUTPUT_CAP, type RunHookOptions } from './run-hook.ts'
export { claudeToolName, matchesTool } from './tool-names.ts'
export { HOOK_EVENTS, type HookEntry, type HookEventName, type HookRun, type HookSource } from './hook-types.ts'
