/** Public surface of the scripted provider. */
export { createScriptedProvider, type ScriptedProvider, type ScriptedProviderOptions } from './scripted-provider.ts'
export { loadScript, parseScript, scriptSchema, type ModelScript, type ScriptedResponse } from './script-schema.ts'
export { ScriptError } from './script-error.ts'
