// Shared pieces of the pseudo-terminal chat tests: key steps, the chat's arguments, golden screens.
import { readFileSync, writeFileSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import type { PtyStep } from './chat-harness.ts'
import { normalizeScreen, screenOf } from './terminal-screen.ts'

/** The banner's last words: the screen is up. */
export const ready: PtyStep = { expect: 'Ctrl-D exits' }
export const enter: PtyStep = { send: '\r' }
export const ctrlD: PtyStep = { send: '\u0004' }
export const ctrlC: PtyStep = { send: '\u0003' }

/** Types `text`, lets the editor settle, presses Enter. */
export const say = (text: string): PtyStep[] => [{ send: text }, { sleep: 0.1 }, enter]

/** `dsh chat` in `repo` with a scripted model and its own `$DSH_HOME`. */
export function chatArgs(w: { readonly home: string; readonly repo: string }, script: string, ...extra: string[]): string[] {
  return ['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`, ...extra]
}

/** The golden text; `DSH_UPDATE_GOLDEN=1` rewrites it from `actual` first (review the diff). */
export function golden(name: string, actual: string): string {
  const file = new URL(`./golden/${name}`, import.meta.url)
  if (process.env['DSH_UPDATE_GOLDEN'] === '1') writeFileSync(file, `${actual}\n`)
  return readFileSync(file, 'utf8').trimEnd()
}

/** The last screen of a transcript with timing noise and run-specific values replaced. */
export async function finalScreen(transcript: string, replacements: Record<string, string>, cols = 120, rows = 40): Promise<string> {
  return normalizeScreen(await screenOf(transcript, cols, rows), replacements)
}

/** A temp tree with `repo/notes.txt` (alpha, beta), `scripts/` and room for `home`; the caller disposes `tree`. */
export async function chatWorkspace(): Promise<{ readonly tree: TempTree; readonly repo: string; readonly home: string; readonly log: string }> {
  const tree = await tempTree({ 'repo/notes.txt': 'alpha\nbeta\n', 'scripts/': null })
  return { tree, repo: tree.path('repo'), home: tree.path('home'), log: tree.path('requests.jsonl') }
}
