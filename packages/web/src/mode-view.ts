/** The mode menu of a session as the page reads it (with the history and from `GET …/mode`). */
import type { WebEnvironment, WebModes } from './web-types.ts'

/** What the page shows in its mode menu for a session. */
export interface ModeView {
  readonly current: string
  readonly available: WebModes['available']
}

/** The mode menu of session `id`, or undefined when the environment offers no modes. */
export const modeViewOf = (env: WebEnvironment, id: string): ModeView | undefined => (env.modes === undefined ? undefined : { current: env.modes.current(id), available: env.modes.available })
