/**
 * The contract between the chat controller and a front end (types only). The full-screen UI and
 * the plain line mode both implement it; the controller never writes to a stream itself.
 */
import type { Message } from '@dsh/contracts'
import type { AgentProgress, TurnResult } from '@dsh/runtime'
import type { TodoItem } from '@dsh/todo'
import type { SessionRow } from './sessions/session-rows.ts'

/** How an output block reads. */
export type Tone = 'plain' | 'notice' | 'warning' | 'error'

/** One choice on offer in {@link ChatView.choose}. */
export interface ChoiceItem {
  /** What `choose` resolves with. */
  readonly value: string
  readonly label: string
  /** A second, dimmer column (files changed, a count). */
  readonly description?: string
}

/** A question with a list of answers (the rewind picker and its confirmation). */
export interface ChoiceRequest {
  readonly title: string
  /** Lines shown above the choices, whole (what the choice will change). */
  readonly lines?: readonly string[]
  readonly items: readonly ChoiceItem[]
}

/** A front end of the chat. Methods must not throw. */
export interface ChatView {
  /** A live event of the running turn. */
  progress(event: AgentProgress): void
  /** A typed prompt or slash command starts running (the screen shows it in the transcript). */
  promptStarted(text: string): void
  /** How a turn ended, when it did not simply complete. */
  turnEnded(result: TurnResult): void
  /** Lines of command output or a notice. */
  lines(lines: readonly string[], tone?: Tone): void
  /** A unified diff (from `/diff`), shown coloured where colour is on. */
  diff(text: string): void
  /** A failure of a turn or a command. */
  error(problem: unknown): void
  /**
   * Another session became current: show its visible conversation (`messages` as the model sees
   * them); `todos` is its checklist (the todo plugin's fold, which a compaction or a rewind keeps
   * right where the visible calls no longer show it), pinned while its next turn runs.
   */
  replay(messages: readonly Message[], todos: readonly TodoItem[]): void
  /** Lets the person choose a stored session; undefined when cancelled (or `signal` aborts) or when the view cannot ask. */
  pickSession(rows: readonly SessionRow[], signal?: AbortSignal): Promise<string | undefined>
  /**
   * Lets the person pick one of `request.items` in a modal list (Enter picks, Esc cancels);
   * undefined when cancelled, when `signal` aborts, or when the view has no modal lists (the
   * plain line mode: callers then answer in text).
   */
  choose(request: ChoiceRequest, signal?: AbortSignal): Promise<string | undefined>
  /** True when {@link choose} shows a list (the full screen); false in the plain line mode. */
  readonly modalLists: boolean
  /** Something the status line shows changed (model, session, usage, running state). */
  statusChanged(): void
  /** The queued messages changed (typed while a step ran). */
  queueChanged(queued: readonly string[]): void
  /**
   * Puts `text` in the prompt to be edited and sent again (a rewind took back the turn it started),
   * unless the person has already typed something there; the plain line mode has no draft to fill.
   */
  restoreDraft(text: string): void
}
