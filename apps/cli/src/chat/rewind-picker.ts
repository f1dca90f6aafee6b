/**
 * The chat's rewind picker (`/rewind` with no argument, or Esc Esc at an idle empty prompt, in the
 * full screen): a list of the session's turns with the files each changed; the chosen turn's
 * preview — every file a rewind to before it restores or removes, the conversation that leaves
 * the model's view, conflicts — shown before anything is done, with the choice of files and
 * conversation, files only, conversation only, or cancel. Nothing changes until that choice.
 */
import { relative } from 'node:path'
import { CheckpointDirectory, listTurns, rewindCommandText } from '@dsh/checkpoints'
import type { ChatView, ChoiceItem } from '@dsh/tui'

/** What the picker needs. */
export interface RewindPickerOptions {
  /** The chat's open session (rewinds append to it). */
  readonly session: Parameters<typeof rewindCommandText>[0]
  readonly directory: CheckpointDirectory
  readonly view: Pick<ChatView, 'choose'>
  readonly signal: AbortSignal
}

const cancel = 'cancel'

/** The answers once a turn is chosen: the value is the argument `/rewind N` takes for that half. */
const modes: readonly ChoiceItem[] = [
  { value: 'both', label: 'Rewind files and conversation' },
  { value: 'code', label: 'Files only', description: 'the conversation stays as it is' },
  { value: 'conversation', label: 'Conversation only', description: 'the files stay as they are' },
  { value: cancel, label: 'Cancel', description: 'change nothing' },
]

const shown = (cwd: string, path: string): string => {
  const inner = relative(cwd, path)
  return inner !== '' && !inner.startsWith('..') ? inner : path
}

/** Runs the picker; returns the lines to show afterwards (the outcome, or that nothing changed). */
export async function pickRewind(options: RewindPickerOptions): Promise<string[]> {
  const { session, directory, view, signal } = options
  const rows = listTurns(session, directory)
  if (rows.length === 0) return ['no turns yet']
  const cwd = session.header.cwd
  const items: ChoiceItem[] = rows.toReversed().map((row) => ({
    value: String(row.turn),
    label: `${row.turn}  ${row.prompt}${row.codeRewound || row.conversationRewound ? '  [rewound]' : ''}`,
    description: row.files.length === 0 ? 'no files' : row.files.map((file) => shown(cwd, file)).join(', '),
  }))
  const turn = await view.choose({ title: 'Rewind to before which turn? (newest first)', items }, signal)
  if (turn === undefined) return ['rewind cancelled: nothing changed']
  // The preview's last line names the command that does it; the choice below does that here.
  const preview = rewindCommandText(session, directory, [turn]).slice(0, -1)
  const mode = await view.choose({ title: `Rewind to before turn ${turn}?`, lines: preview, items: modes }, signal)
  if (mode === undefined || mode === cancel) return ['rewind cancelled: nothing changed']
  return rewindCommandText(session, directory, mode === 'both' ? [turn, 'yes'] : [turn, mode, 'yes'])
}
