/**
 * The text `--help` prints after a command's options: examples, and the environment variables the
 * command reads. Defaults are shown by commander next to each option.
 */

const homeVariables = ['  DSH_HOME           the dsh home (sessions, settings.yaml, the user-global AGENTS.md) when --dsh-home is absent', '  HOME               the default dsh home is ~/.dsh']

const modelVariables = [
  '  DEEPSEEK_API_KEY   key for deepseek:<model> (the default provider)',
  '  OPENAI_API_KEY     key for openai:<model> (not needed for a loopback --base-url)',
  '  OPENAI_BASE_URL    base URL for openai:<model> when --base-url and model.baseUrl are absent',
  '  (model.apiKeyEnv)  the variable the config file names instead of the two keys above',
]

function section(examples: readonly string[], variables: readonly string[]): string {
  return ['', 'Examples:', ...examples.map((line) => `  ${line}`), '', 'Environment:', ...variables, ''].join('\n')
}

/** The variable of the idle notice (chat, web, acp). */
const idleVariable = '  DSH_IDLE_NOTIFY_MS how long a session waits after a turn before Notification hooks hear idle_prompt (default 60000)'

/** After-help text per command path (`run`, `sessions list`, …). */
export const commandHelp: Readonly<Record<string, string>> = {
  '': section(['dsh run --cwd path/to/repo "fix the failing test"', 'dsh chat --cwd path/to/repo', 'dsh                     (in a terminal, no command: dsh chat)', 'dsh "why does it fail?" (in a terminal: dsh chat with that first message)', 'dsh acp                 (for editors: Zed, JetBrains, Neovim, Emacs)', 'dsh sessions list', 'dsh help run'], homeVariables),
  run: section(
    [
      'dsh run --cwd path/to/repo "fix the failing test in packages/api"',
      'echo "summarise README.md" | dsh run      (no prompt argument: it is read from stdin)',
      'dsh run - < prompt.txt                    (- reads the prompt from stdin)',
      'git diff | dsh run "review this diff"      (piped text follows the prompt as a <stdin> block)',
      'make 2>&1 | dsh run "why does it fail?" -  (a last - waits for slow piped text)',
      'dsh run --resume 20260101-120000-ab12cd "now update the changelog"',
      'dsh -p -c "now update the changelog"       (-c: the latest session of this directory, as claude -p -c)',
      'dsh exec -o answer.txt "summarise the diff"  (-o: the final answer to a file too, as codex exec -o)',
      'dsh run --model openai:qwen2.5-coder --base-url http://127.0.0.1:11434/v1 "hi"',
      'dsh run --model deepseek:deepseek-v4-pro --effort max "plan the migration"',
      'dsh run --no-thinking "rename foo to bar in src/"   (DeepSeek: no reasoning, faster and cheaper)',
      'dsh run --add-dir ../shared-lib "update the callers of parseDate in both"   (this session only)',
      "dsh run --permission-mode ask --allow 'bash(npm test*)' \"run the tests\"   (other shell commands are refused)",
      "dsh run --deny 'bash(git push*)' \"tidy up and commit\"",
      'dsh run --output-format json "summarise the diff" | jq -r .result     (exit code and is_error agree)',
      'dsh run --output-format stream-json --input-format stream-json < messages.jsonl   (one turn per line)',
    ],
    [...homeVariables, ...modelVariables, '  DSH_STDIN_WAIT_MS  how long a pipe beside a prompt may stay silent before the run goes on without it (default 2000)'],
  ),
  chat: section(
    ['dsh chat --cwd path/to/repo', 'dsh chat "why does the build fail?"       (the first message, as claude "…")', 'dsh chat --yes                          (= --permission-mode full-auto: nothing asks, shell sandboxed)', 'dsh chat --continue                     (the latest session of this directory)', 'dsh chat --resume                       (pick a session from a list)', 'dsh chat --resume 20260101-1200', "printf 'what is in notes.txt?\\n' | dsh chat --model scripted:script.json"],
    [
      ...homeVariables,
      ...modelVariables,
      '  NO_COLOR           when set and not empty: no colours (editing keeps working)',
      '  TERM               dumb: the plain line mode, with no escape sequences (also when stdin or stdout is not a terminal)',
      idleVariable,
    ],
  ),
  acp: section(
    [
      'dsh acp                                  (an editor starts it and talks ACP on stdin/stdout; see README.md, "Use dsh in your editor")',
      'dsh acp --model openai:qwen2.5-coder --base-url http://127.0.0.1:11434/v1',
      'dsh acp --add-dir ../shared-lib           (granted to every session the editor opens)',
    ],
    [...homeVariables, ...modelVariables, idleVariable],
  ),
  context: section(['dsh context --cwd path/to/repo', 'dsh context --json', 'dsh context why packages/api/src/server.ts'], homeVariables),
  'context why': section(['dsh context why packages/api/src/server.ts --cwd path/to/repo'], homeVariables),
  sessions: section(['dsh sessions list', 'dsh sessions show 20260101-120000-ab12cd --messages'], homeVariables),
  'sessions list': section(['dsh sessions list', 'dsh sessions list --json'], homeVariables),
  'sessions show': section(['dsh sessions show 20260101-120000-ab12cd', 'dsh sessions show 20260101-120000-ab12cd --messages'], homeVariables),
  compact: section(['dsh compact 20260101-120000-ab12cd', 'dsh compact 20260101-120000-ab12cd --model deepseek:deepseek-v4-flash'], [...homeVariables, ...modelVariables]),
  models: section(['dsh models', 'dsh models --base-url http://127.0.0.1:11434/v1 --model openai:any'], modelVariables),
  docs: section(
    [
      'dsh docs --cwd path/to/repo              (the documents of the newest session there)',
      'dsh docs show plan.md --session 20260101-120000-ab12cd',
      'dsh docs edit plan.md --from plan.txt     (or $EDITOR without --from)',
      'dsh docs switches strictOnTopic=on ledger=off',
      'dsh docs templates save team-rules',
      'dsh docs sweep --yes',
    ],
    [...homeVariables, '  EDITOR, VISUAL     the editor of dsh docs edit when --from is absent'],
  ),
  roots: section(['dsh roots list', 'dsh roots add ../shared-lib --alias lib', 'dsh roots remove 1', 'dsh roots alias 1 core'], homeVariables),
  web: section(
    [
      'dsh web --cwd path/to/repo                (prints http://127.0.0.1:PORT/?token=TOKEN; open it)',
      'dsh web --port 8765 --config dsh.yaml',
      'dsh web --model scripted:script.json --request-log requests.jsonl',
    ],
    [...homeVariables, ...modelVariables, idleVariable],
  ),
  skills: section(['dsh skills list', 'dsh skills show deploy', 'dsh skills trust --cwd path/to/repo'], homeVariables),
  'skills list': section(['dsh skills list', 'dsh skills list --cwd path/to/repo'], homeVariables),
  'skills show': section(['dsh skills show deploy'], homeVariables),
  'skills trust': section(['dsh skills trust      (records the digest of every project SKILL.md)'], homeVariables),
  'roots list': section(['dsh roots list', 'dsh roots list --cwd path/to/repo --json'], homeVariables),
  'roots add': section(['dsh roots add ../shared-lib', 'dsh roots add /home/me/work/docs --alias docs --cwd path/to/repo'], homeVariables),
  'roots remove': section(['dsh roots remove 2', 'dsh roots remove ../shared-lib'], homeVariables),
  'roots alias': section(['dsh roots alias 1 core', 'dsh roots alias 1          (clears the alias)'], homeVariables),
  help: section(['dsh help', 'dsh help run', 'dsh help sessions show'], ['  (none)']),
  hooks: section(['dsh hooks list', 'dsh hooks trust --cwd path/to/repo'], homeVariables),
  'hooks list': section(['dsh hooks list --cwd path/to/repo', 'dsh hooks list --json'], homeVariables),
  'hooks trust': section(['dsh hooks trust                (after reading .claude/settings.json: its hooks run until it changes)'], homeVariables),
  sandbox: section(['dsh sandbox check', 'dsh sandbox check --cwd path/to/repo --config dsh.yaml'], homeVariables),
  'sandbox check': section(
    ['dsh sandbox check --cwd path/to/repo', 'dsh sandbox check --permission-mode read-only', 'dsh sandbox check --add-dir ../shared-lib'],
    [...homeVariables, '  PATH               where bwrap (Debian package bubblewrap) is looked up'],
  ),
}
