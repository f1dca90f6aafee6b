/**
 * The `lessons.md` ledger format. One lesson per markdown bullet (`- `), fields separated by
 * `｜` (full width) or `|`: mistake, why, correct, trigger, date. Labels are accepted in English
 * (`mistake｜why｜correct｜trigger`) and in the Chinese users already write
 * (`错误｜为什么错｜正确｜触发`), followed by `：` or `:`. Only bullets with a trigger are used.
 * A trigger is split on `+ ＋ 、 , ，` into parts; parts naming a known tool restrict the tool,
 * the rest are path or command fragments (`*` splits a fragment into pieces that must all match).
 */

/** Tool names a trigger part may name. */
export const TRIGGER_TOOLS: ReadonlySet<string> = new Set([
  'bash', 'sh', 'zsh', 'pwsh', 'powershell', 'cmd',
  'read', 'write', 'edit', 'glob', 'grep', 'ls', 'todo_write', 'doc_read', 'doc_write', 'subagent', 'subagent_fork', 'workflow', 'ralph', 'run_code',
])

/** One parsed ledger line. */
export interface LedgerLine {
  /** The bullet as written (trimmed). */
  readonly text: string
  /** Tools the trigger names (lower-cased); empty means any tool. */
  readonly tools: readonly string[]
  /** Path or command fragments (each possibly with `*`). */
  readonly fragments: readonly string[]
}

const TRIGGER = /^\s*(?:-\s+)?(?:触发|trigger)\s*[：:]\s*(.*)$/iu

/** The trigger field of a line, if it has one: the first field that starts with the label (a "trigger:" inside another field's text is not one). */
export function triggerOf(line: string): string | undefined {
  for (const field of line.split(/[｜|]/u)) {
    const match = TRIGGER.exec(field)
    if (match !== null) return match[1]?.trim()
  }
  return undefined
}

/** Parses the ledger text; lines without a usable trigger are skipped. */
export function parseLedger(text: string): LedgerLine[] {
  const out: LedgerLine[] = []
  for (const raw of text.split(/\r?\n/u)) {
    const line = raw.trim()
    if (!line.startsWith('- ')) continue
    const trigger = triggerOf(line)
    if (trigger === undefined || trigger === '') continue
    const parts = trigger
      .split(/[+＋、,，]/u)
      .map((part) => part.trim())
      .filter((part) => part !== '')
    const tools = parts.filter((part) => TRIGGER_TOOLS.has(part.toLowerCase())).map((part) => part.toLowerCase())
    const fragments = parts.filter((part) => !TRIGGER_TOOLS.has(part.toLowerCase()))
    if (tools.length === 0 && fragments.length === 0) continue
    out.push({ text: line, tools, fragments })
  }
  return out
}
