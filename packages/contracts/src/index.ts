/** Public surface of the contracts package (types only). */
export type * from './messages.ts'
export type * from './session.ts'
export type * from './fs.ts'
export type * from './llm.ts'
export type * from './tools.ts'
export type * from './agent.ts'
export type * from './hooks.ts'
export type * from './services.ts'
