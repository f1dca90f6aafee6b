/**
 * What `dsh run` prints as the answer: the model's text without terminal control sequences, so an
 * answer cannot write the clipboard (OSC 52), retitle the window, move the cursor or restyle the
 * terminal. Removed: whole CSI, OSC, DCS, SOS, PM and APC sequences (7-bit `ESC [`, `ESC ]`, … and
 * their 8-bit C1 forms), other two-byte escapes, and every other C0 and C1 control character
 * except newline and tab. The text is kept as it is only when stdout is not a terminal and
 * `--raw` was given.
 */

// CSI: ESC [ or 0x9b, parameter and intermediate bytes, one final byte.
const csi = '(?:\\u001b\\[|\\u009b)[\\u0030-\\u003f]*[\\u0020-\\u002f]*[\\u0040-\\u007e]?'
// OSC, DCS, SOS, PM, APC: up to BEL or the string terminator (ESC \ or 0x9c), or the end of the text.
const strings = '(?:\\u001b[\\]PX^_]|[\\u009d\\u0090\\u0098\\u009e\\u009f])[\\s\\S]*?(?:\\u0007|\\u001b\\\\|\\u009c|$)'
// Any other escape: ESC and the byte after it.
const escape = '\\u001b[\\s\\S]?'
// Remaining C0 (but \t and \n), DEL and C1 controls.
const controls = '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f]'
const pattern = new RegExp(`${strings}|${csi}|${escape}|${controls}`, 'g')

/** `text` without terminal control sequences (newlines and tabs kept). */
export function stripControlSequences(text: string): string {
  return text.replace(pattern, '')
}

/** The answer as `dsh run` prints it on `stdout`. */
export function answerForOutput(text: string, options: { readonly isTerminal: boolean; readonly raw: boolean }): string {
  return !options.isTerminal && options.raw ? text : stripControlSequences(text)
}
