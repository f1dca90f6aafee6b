/**
 * The chat's own keys, seen before the editor: Ctrl-C, Esc and Ctrl-D through the interrupt
 * policy (Esc Esc at an idle empty prompt opens the rewind picker through `openRewind`), Ctrl-O (the last tool result in full), Ctrl-T (reasoning)
 * and Shift+Tab (the next permission mode, shown in the hint line until the next key). Any other key disarms a
 * pending exit and goes to the editor or the open modal; so does the end of the exit window,
 * which also takes the "press Ctrl-C again" hint away. With a modal open, only Ctrl-C is taken
 * (it cancels the running step, which also withdraws the question).
 */
import { matchesKey } from '@mariozechner/pi-tui'
import type { ChatController } from '../chat-controller.ts'
import { decideKey, exitWindowMs, interruptExitCode, type PolicyKey } from '../interrupt-policy.ts'
import type { ScreenLayout } from './screen-layout.ts'
import type { ScreenView } from './screen-view.ts'

/** What the keys act on. */
export interface KeyTargets {
  readonly layout: Pick<ScreenLayout, 'tui' | 'editor' | 'modalOpen' | 'setHint'>
  readonly view: Pick<ScreenView, 'toggleLastTool' | 'toggleReasoning'>
  readonly controller: Pick<ChatController, 'busy' | 'cancel' | 'exit'>
  readonly now: () => number
  /** Opens the rewind picker (Esc Esc); absent: a second Esc does nothing. */
  readonly openRewind?: () => void
  /** Shift+Tab: the next permission mode; returns the line for the hint (absent: the key goes to the editor). */
  readonly cycleMode?: () => string | undefined
}

/** The exit hint shown after a first Ctrl-C. */
export const exitHint = 'press Ctrl-C again to exit (or Ctrl-D, or /exit)'

function policyKey(data: string): PolicyKey {
  if (matchesKey(data, 'ctrl+c')) return 'ctrl-c'
  if (matchesKey(data, 'escape')) return 'escape'
  if (matchesKey(data, 'ctrl+d')) return 'ctrl-d'
  return 'other'
}

/** Installs the listener; returns its remover. */
export function bindKeys(options: KeyTargets): () => void {
  const { layout, view, controller } = options
  let armedAt: number | undefined
  let escapedAt: number | undefined
  let disarm: ReturnType<typeof setTimeout> | undefined
  const remove = layout.tui.addInputListener((data) => {
    if (matchesKey(data, 'ctrl+o')) return view.toggleLastTool() ? { consume: true } : undefined
    if (matchesKey(data, 'ctrl+t')) {
      view.toggleReasoning()
      return { consume: true }
    }
    if (options.cycleMode !== undefined && matchesKey(data, 'shift+tab') && !layout.modalOpen && !layout.editor.isShowingAutocomplete()) {
      const line = options.cycleMode()
      if (line === undefined) return undefined
      layout.setHint(line)
      layout.tui.requestRender()
      return { consume: true }
    }
    const key = policyKey(data)
    if (layout.modalOpen) {
      if (key === 'ctrl-c' && controller.busy) controller.cancel()
      return key === 'ctrl-c' ? { consume: true } : undefined
    }
    if (key === 'escape' && layout.editor.isShowingAutocomplete()) return undefined
    const decision = decideKey(key, { running: controller.busy, inputEmpty: layout.editor.getText() === '', ...(armedAt === undefined ? {} : { armedAt }), ...(escapedAt === undefined ? {} : { escapedAt }) }, options.now())
    armedAt = decision.armedAt
    escapedAt = decision.escapedAt
    layout.setHint(decision.action === 'arm-exit' ? exitHint : '')
    clearTimeout(disarm)
    if (decision.action === 'arm-exit') {
      // The hint must not outlive the window: a Ctrl-C after it only arms again.
      disarm = setTimeout(() => {
        armedAt = undefined
        layout.setHint('')
      }, exitWindowMs)
    }
    switch (decision.action) {
      case 'cancel': {
        const requeued = controller.cancel()
        if (requeued.length > 0 && layout.editor.getText() === '') layout.editor.setText(requeued.join('\n'))
        layout.tui.requestRender()
        return { consume: true }
      }
      case 'clear-input':
        layout.editor.setText('')
        // A consumed key draws nothing by itself: without this the cleared text stayed on screen until the next key.
        layout.tui.requestRender()
        return { consume: true }
      case 'exit':
        // Two Ctrl-C end the chat as SIGINT would (130); Ctrl-D is an ordinary end (0).
        controller.exit(key === 'ctrl-c' ? interruptExitCode : 0)
        return { consume: true }
      case 'open-rewind':
        options.openRewind?.()
        return { consume: true }
      case 'arm-exit':
      case 'arm-rewind':
      case 'none':
        return { consume: true }
      case 'pass':
        return undefined
      default: {
        const unreachable: never = decision.action
        return unreachable
      }
    }
  })
  return () => {
    clearTimeout(disarm)
    remove()
  }
}
