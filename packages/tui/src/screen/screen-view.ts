/**
 * The full-screen view: turns agent progress and command output into transcript components
 * (prompts, streaming markdown answers, reasoning, tool rows with diffs, notices) and keeps the
 * last tool row for Ctrl-O and the reasoning blocks for Ctrl-T. Every change asks for a render;
 * pi-tui redraws only the lines that changed.
 */
import { Spacer, type Component, type Container } from '@mariozechner/pi-tui'
import type { Message } from '@dsh/contracts'
import type { AgentProgress, TurnResult } from '@dsh/runtime'
import { TODO_TOOL, todosOfArguments, type TodoItem } from '@dsh/todo'
import type { ChatView, ChoiceRequest, Tone } from '../chat-view.ts'
import type { SessionRow } from '../sessions/session-rows.ts'
import { problemText } from '../text-safety.ts'
import type { Theme } from '../theme.ts'
import { attachedLines } from '../attached-lines.ts'
import { COMPACTED_NOTE } from '../compacted-note.ts'
import { DiffBlock } from './diff-block.ts'
import { contentBefore, editDiff } from './edit-preview.ts'
import { ReasoningBlock } from './reasoning-block.ts'
import { replayBlocks } from './replay-blocks.ts'
import { StreamingMarkdown } from './streaming-markdown.ts'
import { LinesBlock, PromptBlock } from './text-block.ts'
import { ToolRow } from './tool-row.ts'

/** Kinds of transcript content, for spacing. */
type BlockKind = 'prompt' | 'answer' | 'tool' | 'reasoning' | 'other'

/** What the view needs from the screen around it. */
export interface ScreenViewHost {
  readonly transcript: Container
  readonly theme: Theme
  readonly now: () => number
  /** Working directory of the current session (write diffs read from it). */
  readonly cwd: () => string
  readonly requestRender: () => void
  readonly statusChanged: () => void
  readonly queueChanged: (queued: readonly string[]) => void
  /** The checklist to pin above the status line (empty: none); absent: nothing is pinned. */
  readonly todosChanged?: (items: readonly TodoItem[]) => void
  readonly restoreDraft: (text: string) => void
  readonly pickSession: (rows: readonly SessionRow[], signal?: AbortSignal) => Promise<string | undefined>
  readonly choose: (request: ChoiceRequest, signal?: AbortSignal) => Promise<string | undefined>
  /** True while a question or picker holds the keyboard (running rows that printed nothing say they wait). */
  readonly waiting?: () => boolean
}

/** The ChatView of the full-screen UI. */
export class ScreenView implements ChatView {
  readonly #host: ScreenViewHost
  readonly #reasoning: ReasoningBlock[] = []
  readonly #before = new Map<string, { name: string; args: string; before: string | undefined }>()
  #answer: StreamingMarkdown | undefined
  #thinking: ReasoningBlock | undefined
  #tools = new Map<string, ToolRow>()
  #lastTool: ToolRow | undefined
  #reasoningExpanded = false
  /** What the transcript ends with, to put one blank line between answers, tool groups and the rest. */
  #last: BlockKind = 'other'
  /** Answer and reasoning blocks (with their spacers) of the model call now streaming: a discarding retry removes them. */
  #attempt: Component[] = []
  /** The last checklist `todo_write` set in this view, and whether a turn is running (it is pinned only then). */
  #todos: readonly TodoItem[] = []
  #running = false

  constructor(host: ScreenViewHost) {
    this.#host = host
  }

  progress(event: AgentProgress): void {
    const { theme } = this.#host
    switch (event.type) {
      case 'step-start':
        this.#pin(true)
        this.#endReasoning()
        this.#answer = undefined
        this.#attempt = []
        break
      case 'retry':
        // The log line (`retrying: …`) reaches the transcript through the diagnostics relay; here
        // the void partial answer leaves the screen, so nothing of it is shown twice.
        if (event.discarded) this.#discardAttempt()
        break
      case 'reasoning':
        if (this.#thinking === undefined) {
          this.#thinking = new ReasoningBlock(theme)
          this.#thinking.setExpanded(this.#reasoningExpanded)
          this.#reasoning.push(this.#thinking)
          this.#append(this.#thinking, 'reasoning')
        }
        this.#thinking.append(event.text)
        break
      case 'text':
        this.#endReasoning()
        if (this.#answer === undefined) {
          this.#answer = new StreamingMarkdown(theme.markdown)
          this.#append(this.#answer, 'answer')
        }
        this.#answer.append(event.text)
        break
      case 'tool-start': {
        this.#endReasoning()
        this.#answer = undefined
        this.#attempt = []
        const row = new ToolRow({ callId: event.callId, name: event.name, rawArguments: event.arguments, theme, now: this.#host.now, ...(this.#host.waiting === undefined ? {} : { waiting: this.#host.waiting }) })
        this.#before.set(event.callId, { name: event.name, args: event.arguments, before: contentBefore(event.name, event.arguments, this.#host.cwd()) })
        this.#tools.set(event.callId, row)
        this.#lastTool = row
        this.#append(row, 'tool')
        break
      }
      case 'tool-output':
        this.#tools.get(event.callId)?.appendOutput(event.text)
        break
      case 'tool-end': {
        const call = this.#before.get(event.callId)
        this.#before.delete(event.callId)
        this.#tools.get(event.callId)?.finish(event.outcome, call === undefined ? undefined : editDiff(call.name, call.args, call.before))
        const todos = call?.name === TODO_TOOL && !event.outcome.isError ? todosOfArguments(call.args) : undefined
        if (todos !== undefined) {
          this.#todos = todos
          this.#pin(true)
        }
        break
      }
      case 'attached':
        this.#add(new LinesBlock(attachedLines(event.files), 'notice', theme))
        break
      case 'compacted':
        // The transcript above stays on screen; the model has the summary in its place from here.
        this.#endReasoning()
        this.#answer = undefined
        this.#add(new LinesBlock([COMPACTED_NOTE], 'notice', theme))
        break
      case 'turn-end':
        this.#pin(false)
        this.#endReasoning()
        this.#answer = undefined
        this.#tools = new Map()
        break
      default: {
        const unreachable: never = event
        return unreachable
      }
    }
    this.#host.requestRender()
  }

  /** Tells the host what to pin: the checklist while a turn runs, nothing between turns. */
  #pin(running: boolean): void {
    if (running === this.#running && !running) return
    this.#running = running
    this.#host.todosChanged?.(running ? this.#todos : [])
  }

  promptStarted(text: string): void {
    this.#append(new PromptBlock(text, this.#host.theme), 'prompt')
    this.#host.requestRender()
  }

  turnEnded(result: TurnResult): void {
    if (result.reason === 'cancelled') this.lines(['[interrupted]'], 'warning')
    else if (result.reason === 'max-steps') this.lines(['stopped at the step limit; send another message to continue'], 'warning')
    else if (result.reason === 'blocked') this.lines(['the turn was blocked before the model was called'], 'warning')
    else if (result.reason === 'error') this.error(result.error ?? 'the turn failed')
  }

  lines(lines: readonly string[], tone: Tone = 'plain'): void {
    this.#add(new LinesBlock(lines, tone, this.#host.theme))
  }

  diff(text: string): void {
    this.#add(new DiffBlock({ lines: text.replace(/\n$/, '').split('\n'), theme: this.#host.theme }))
  }

  error(problem: unknown): void {
    this.#add(new LinesBlock([`error: ${problemText(problem)}`], 'error', this.#host.theme))
  }

  replay(messages: readonly Message[], todos: readonly TodoItem[]): void {
    this.#host.transcript.clear()
    this.#last = 'other'
    this.#reasoning.length = 0
    this.#lastTool = undefined
    this.#todos = todos
    for (const block of replayBlocks(messages, this.#host.theme, this.#host.now)) this.#host.transcript.addChild(block)
    this.#host.requestRender()
  }

  pickSession(rows: readonly SessionRow[], signal?: AbortSignal): Promise<string | undefined> {
    return this.#host.pickSession(rows, signal)
  }

  readonly modalLists = true

  choose(request: ChoiceRequest, signal?: AbortSignal): Promise<string | undefined> {
    return this.#host.choose(request, signal)
  }

  statusChanged(): void {
    this.#host.statusChanged()
  }

  queueChanged(queued: readonly string[]): void {
    this.#host.queueChanged(queued)
  }

  restoreDraft(text: string): void {
    this.#host.restoreDraft(text)
  }

  /** Ctrl-O: shows or hides the last tool call's whole result; false when there was none. */
  toggleLastTool(): boolean {
    if (this.#lastTool === undefined) return false
    this.#lastTool.toggleExpanded()
    this.#host.requestRender()
    return true
  }

  /** Ctrl-T: shows or collapses every reasoning block. */
  toggleReasoning(): void {
    this.#reasoningExpanded = !this.#reasoningExpanded
    for (const block of this.#reasoning) block.setExpanded(this.#reasoningExpanded)
    this.#host.requestRender()
  }

  /** Removes the streamed blocks of the failed attempt. */
  #discardAttempt(): void {
    const { transcript } = this.#host
    for (const component of this.#attempt) {
      transcript.removeChild(component)
      const index = component instanceof ReasoningBlock ? this.#reasoning.indexOf(component) : -1
      if (index !== -1) this.#reasoning.splice(index, 1)
    }
    this.#attempt = []
    this.#thinking = undefined
    this.#answer = undefined
    const last = transcript.children.at(-1)
    this.#last = last === undefined ? 'other' : last instanceof PromptBlock ? 'prompt' : last instanceof ToolRow ? 'tool' : 'other'
  }

  #endReasoning(): void {
    this.#thinking?.finish()
    this.#thinking = undefined
  }

  #add(component: Component): void {
    this.#append(component, 'other')
    this.#host.requestRender()
  }

  /** Adds a block, with a blank line before it when the kind of content changes. */
  #append(component: Component, kind: BlockKind): void {
    const separate = kind !== this.#last && kind !== 'prompt' && this.#last !== 'prompt' && !(kind === 'tool' && this.#last === 'reasoning')
    const streamed = kind === 'answer' || kind === 'reasoning'
    if (separate && this.#host.transcript.children.length > 0) {
      const spacer = new Spacer(1)
      this.#host.transcript.addChild(spacer)
      if (streamed) this.#attempt.push(spacer)
    }
    this.#host.transcript.addChild(component)
    if (streamed) this.#attempt.push(component)
    this.#last = kind
  }
}
