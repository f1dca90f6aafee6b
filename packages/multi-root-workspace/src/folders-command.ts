/**
 * `/workspace-folders` for any front end: `list` (the default), `add PATH`, `remove N|PATH|ID`,
 * `alias N|PATH [NAME]` and `help`, on a session's roots, returning the text to show. Arguments
 * may be quoted ("…" or '…') to carry spaces. A failure is one line `/workspace-folders: <code>:
 * <message>`; nothing is thrown for bad input.
 */
import { isRootsError } from './errors.ts'
import type { RootsTarget } from './registry-target.ts'
import { addRoot, aliasText, listingText, removedText } from './roots-text.ts'

/** The command as typed. */
export const FOLDERS_COMMAND = '/workspace-folders'

const HELP = [
  `${FOLDERS_COMMAND} [list]            additional workspace roots of this session, with their states`,
  `${FOLDERS_COMMAND} add PATH          register an absolute PATH for the working directory (~ expands)`,
  `${FOLDERS_COMMAND} remove N|PATH|ID  forget a root (a number of the list, its path or its id)`,
  `${FOLDERS_COMMAND} alias N|PATH [NAME]  name a root, or clear its name`,
].join('\n')

/** Splits `text` into words; quotes group words with spaces. */
export function splitWords(text: string): string[] {
  const words: string[] = []
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/gu)) words.push(match[1] ?? match[2] ?? match[3] ?? '')
  return words
}

const usage = (form: string): string => `${FOLDERS_COMMAND}: usage: ${FOLDERS_COMMAND} ${form}`

/** Runs one `/workspace-folders` line (the text after the command) on `roots`. */
export async function workspaceFolders(roots: RootsTarget, argsText: string): Promise<string> {
  const [verb = 'list', ...args] = splitWords(argsText)
  try {
    switch (verb) {
      case 'list':
        return args.length === 0 ? listingText(roots.list(), `${FOLDERS_COMMAND} add PATH`) : usage('list')
      case 'add':
        return args.length === 1 ? await addRoot(roots, args[0] ?? '') : usage('add PATH')
      case 'remove':
        return args.length === 1 ? removedText(await roots.remove(args[0] ?? '')) : usage('remove N|PATH|ID')
      case 'alias':
        return args.length === 1 || args.length === 2 ? aliasText(await roots.alias(args[0] ?? '', args[1])) : usage('alias N|PATH [NAME]')
      case 'help':
        return HELP
      default:
        return `${FOLDERS_COMMAND}: unknown verb ${JSON.stringify(verb.slice(0, 40))}\n${HELP}`
    }
  } catch (error) {
    // Expected failures (validation, references, an unreadable or busy registry) become the one
    // line the person sees; anything else is a bug and propagates.
    if (isRootsError(error)) return `${FOLDERS_COMMAND}: ${error.code}: ${error.message}`
    throw error
  }
}
