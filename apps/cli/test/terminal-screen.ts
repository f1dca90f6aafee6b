// Replays a raw terminal transcript through a headless terminal emulator (@xterm/headless) to get
// the screen a person would see, and removes timing noise (spinner frames, elapsed times, session
// ids, temp paths) so screens can be compared with golden text.
import xterm from '@xterm/headless'

/** The visible screen after `transcript`, one string per row, trailing blanks trimmed. */
export function screenOf(transcript: string, cols = 120, rows = 40): Promise<string[]> {
  const terminal = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 0 })
  return new Promise((resolve) => {
    terminal.write(transcript, () => {
      const buffer = terminal.buffer.active
      const lines: string[] = []
      for (let row = 0; row < rows; row++) lines.push(buffer.getLine(buffer.viewportY + row)?.translateToString(true).trimEnd() ?? '')
      terminal.dispose()
      while (lines.length > 0 && lines.at(-1) === '') lines.pop()
      resolve(lines)
    })
  })
}

/** Screen text with timing noise and run-specific values replaced by stable markers. */
export function normalizeScreen(lines: readonly string[], replacements: Readonly<Record<string, string>> = {}): string {
  let text = lines.join('\n')
  for (const [from, to] of Object.entries(replacements)) text = text.split(from).join(to)
  return text
    .replace(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/g, '⠿')
    .replace(/\b\d+(\.\d)?s\b/g, '<t>')
    .replace(/\b\d+m\d\ds\b/g, '<t>')
    .replace(/\b\d{8}-\d{6}-[0-9a-f]{6}\b/g, '<session>')
}
