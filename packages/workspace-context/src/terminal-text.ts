/**
 * Terminal-safe text for people (`dsh context`, `dsh context why`, diagnostics): repository-derived
 * strings (file names, link targets, instruction content) may carry control characters that a
 * terminal would act on (ESC sequences that move the cursor, clear the screen, set the title or
 * write the clipboard with OSC 52). Every C0 control, DEL and every C1 control is replaced by a
 * visible placeholder: caret notation for C0 and DEL (`^[` for ESC, `^G` for BEL, `^M` for CR,
 * `^?` for DEL) and `\u{9b}`-style escapes for C1 (`\u009b`). Multi-line text keeps its newlines
 * and tabs; one-line text (paths, details, diagnostics) keeps tabs only. Model-visible text and
 * JSON output are never passed through here: they stay exact.
 */

// oxlint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/gu

function placeholder(char: string): string {
  const code = char.charCodeAt(0)
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`
  if (code === 0x7f) return '^?'
  return `\\u${code.toString(16).padStart(4, '0')}`
}

/** Multi-line text for a terminal: every control character except newline and tab made visible. */
export const terminalText = (text: string): string => text.replace(CONTROLS, (char) => (char === '\n' || char === '\t' ? char : placeholder(char)))

/** One line for a terminal: like {@link terminalText}, and a newline is made visible too. */
export const terminalLine = (text: string): string => text.replace(CONTROLS, (char) => (char === '\t' ? char : placeholder(char)))
