/**
 * The commands dsh ships with, offered after every command file and skill folder of the user and
 * the project (a `.dsh/commands/init.md`, `~/.claude/commands/init.md`, … of the same name wins, and
 * the bundled one is listed as shadowed by it). `/init` asks the model to write the project's
 * `AGENTS.md`, or to improve the one there is — as Claude Code's and Codex's `/init` do.
 */
import type { CommandFile } from './types.ts'

/** What a bundled command's `file` says (it has none on disk). */
export const BUNDLED_FILE = '(built into dsh)'

/** The text `/init` sends (README "What the model sees"). */
export const INIT_PROMPT = [
  'Write the AGENTS.md file of this project: the instructions every coding agent that works here will read first.',
  '',
  'First look at the repository: its README, build and package files, CI configuration, the layout of its source and test folders, and any instruction files it already has (AGENTS.md, CLAUDE.md, .cursor/rules, .github/copilot-instructions.md). Then write AGENTS.md at the project root with:',
  '- the exact commands to install, build, test (one test too) and lint, as this project runs them;',
  '- how the code is laid out: where each part lives and what it is for;',
  '- the conventions a change here must follow (style, naming, tests, commit messages), and what to avoid.',
  '',
  'Keep it short and specific to this repository; leave out advice that fits any project. If AGENTS.md exists already, improve it rather than starting over: keep what is still true, correct what is not, and add what is missing. When you are done, say in a few lines what you wrote or changed.',
].join('\n')

/** The bundled commands, in name order. */
export const BUNDLED_COMMANDS: readonly CommandFile[] = [{ name: 'init', file: BUNDLED_FILE, body: INIT_PROMPT, scope: 'bundled', description: 'write or improve this project\'s AGENTS.md' }]
