/**
 * One tool call in the transcript: while it runs, a spinner, the tool, its most telling argument
 * and the elapsed time on one line, and below it the last lines the call has printed so far
 * (see live-output.ts); when done, the output collapses and the row shows `✓`/`✗` with a one-line result summary. Edits and
 * writes add a coloured diff below, a `todo_write` its checklist; `expand` shows the whole result (the chat's Ctrl-O).
 */
import { truncateToWidth, type Component } from '@mariozechner/pi-tui'
import type { ToolFinalOutcome } from '@dsh/contracts'
import type { Theme } from '../theme.ts'
import { elapsed } from '../status/status-snapshot.ts'
import { sanitize } from '../text-safety.ts'
import { toolLabel } from '../tool-label.ts'
import { argumentSummary, outcomeSummary } from '../tool-summary.ts'
import { progressText, todosOfArguments, TODO_TOOL, type TodoItem } from '@dsh/todo'
import { DiffBlock } from './diff-block.ts'
import { LiveOutput } from './live-output.ts'
import { TodoBlock } from './todo-block.ts'
import { WAITING } from './waiting.ts'

/** Spinner frames (braille dots). */
export const spinnerFrames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

/** The spinner frame for a clock reading. */
export const spinnerAt = (now: number): string => spinnerFrames[Math.floor(now / 80) % spinnerFrames.length] ?? '⠋'

/** Lines of output shown under a running row. */
export const liveOutputLines = 5

/** Most result lines shown when expanded. */
export const maxExpandedLines = 400

/** A tool call row. */
export class ToolRow implements Component {
  readonly callId: string
  readonly #name: string
  /** What the row shows for the name (`server › tool` for an MCP tool). */
  readonly #label: string
  readonly #summary: string
  readonly #theme: Theme
  readonly #now: () => number
  readonly #started: number
  #outcome: ToolFinalOutcome | undefined
  #finishedAt: number | undefined
  #diff: DiffBlock | undefined
  /** The checklist of a `todo_write` call (its items as written; shown once it succeeded). */
  readonly #todos: { readonly items: readonly TodoItem[]; readonly block: TodoBlock } | undefined
  #todosShown = false
  #expanded = false
  readonly #output = new LiveOutput()
  /** Lines of a finished row at the last width (a running row changes every frame). */
  #cache: { readonly width: number; readonly lines: string[] } | undefined

  /** True while a question or picker waits for the person (a running row that printed nothing yet is waiting on it). */
  readonly #waiting: () => boolean

  constructor(options: { readonly callId: string; readonly name: string; readonly rawArguments: string; readonly theme: Theme; readonly now: () => number; readonly waiting?: () => boolean }) {
    this.callId = options.callId
    this.#name = sanitize(options.name)
    this.#label = toolLabel(this.#name)
    const todos = this.#name === TODO_TOOL ? todosOfArguments(options.rawArguments) : undefined
    this.#todos = todos === undefined ? undefined : { items: todos, block: new TodoBlock(todos, options.theme) }
    this.#summary = todos === undefined ? argumentSummary(options.rawArguments, 200) : ''
    this.#theme = options.theme
    this.#now = options.now
    this.#waiting = options.waiting ?? (() => false)
    this.#started = options.now()
  }

  /** True until the outcome arrives. */
  get running(): boolean {
    return this.#outcome === undefined
  }

  /** Adds output printed by the running call (shown until the outcome arrives). */
  appendOutput(text: string): void {
    if (this.#outcome === undefined) this.#output.append(text)
  }

  /** Records the outcome and, for edits and writes, the diff lines to show. */
  finish(outcome: ToolFinalOutcome, diff: readonly string[] | undefined): void {
    this.#outcome = outcome
    this.#finishedAt = this.#now()
    this.#cache = undefined
    this.#todosShown = !outcome.isError && this.#todos !== undefined
    if (diff !== undefined && diff.length > 0 && !outcome.isError) this.#diff = new DiffBlock({ lines: diff, theme: this.#theme, maxLines: 40, indent: '    ' })
  }

  /** Shows or hides the whole result; returns the new state. */
  toggleExpanded(): boolean {
    this.#expanded = !this.#expanded
    this.#cache = undefined
    return this.#expanded
  }

  render(width: number): string[] {
    const t = this.#theme
    const head = `${t.bold(this.#label)}${this.#summary === '' ? '' : ` ${this.#summary}`}`
    if (this.#outcome === undefined && this.#output.empty && this.#waiting()) return [truncateToWidth(`${t.yellow('?')} ${head} ${t.yellow(WAITING)}`, width)]
    if (this.#outcome === undefined) return [truncateToWidth(`${t.cyan(spinnerAt(this.#now()))} ${head} ${t.dim(elapsed(this.#now() - this.#started))}`, width), ...this.#liveLines(width)]
    if (this.#cache?.width === width) return this.#cache.lines
    const checklist = this.#todosShown ? this.#todos : undefined
    const result = checklist === undefined ? outcomeSummary(this.#outcome, { tool: this.#name, max: 200 }) : { ok: true, text: progressText(checklist.items) }
    const mark = result.ok ? t.green('✓') : t.red('✗')
    const took = (this.#finishedAt ?? this.#started) - this.#started >= 1000 ? t.dim(` ${elapsed((this.#finishedAt ?? this.#started) - this.#started)}`) : ''
    const lines = [truncateToWidth(`${mark} ${head}  ${result.ok ? t.dim(result.text) : t.red(result.text)}${took}`, width)]
    if (this.#diff !== undefined) lines.push(...this.#diff.render(width))
    if (checklist !== undefined) lines.push(...checklist.block.render(width))
    if (this.#expanded && checklist === undefined) lines.push(...this.#expandedLines(width))
    this.#cache = { width, lines }
    return lines
  }

  #liveLines(width: number): string[] {
    if (this.#output.empty) return []
    const { lines, earlier } = this.#output.last(liveOutputLines)
    const shown = lines.map((line) => truncateToWidth(this.#theme.dim(`  │ ${line}`), width))
    return earlier === 0 ? shown : [truncateToWidth(this.#theme.dim(`  │ … ${earlier} earlier ${earlier === 1 ? 'line' : 'lines'}`), width), ...shown]
  }

  #expandedLines(width: number): string[] {
    const all = sanitize(this.#outcome?.content ?? '').replace(/\n+$/, '').split('\n')
    const shown = all.slice(0, maxExpandedLines).map((line) => truncateToWidth(this.#theme.dim(`    ${line}`), width))
    if (all.length > shown.length) shown.push(truncateToWidth(this.#theme.dim(`    … ${all.length - shown.length} more lines`), width))
    return shown
  }

  invalidate(): void {
    this.#cache = undefined
  }
}
