/**
 * Files inside the writable roots whose change runs code outside the sandbox later — at the
 * user's next `git status`, `npm test`, `make`, editor start or `cd` — or changes what an agent
 * does (issue 19, item 5). A `write`/`edit` of one asks (or is denied where nobody can be asked)
 * unless an allow rule names it, and a change made without a question stops `bash(…)` allow rules
 * for the rest of the session (session-taint.ts). Pure: the caller passes the path's components
 * below its root and whether the existing file is executable.
 */

/** Directories: any path through one of them is protected, with the reason. */
const directories: ReadonlyMap<string, string> = new Map([
  ['.git', 'git runs what .git holds (config such as core.fsmonitor and aliases, hooks) at the next git command'],
  ['.claude', 'it holds agent settings and hooks that run commands'],
  ['.vscode', 'it holds editor settings and tasks that run commands'],
  ['.idea', 'it holds editor settings and run configurations'],
  ['.husky', 'it holds git hooks'],
  ['.devcontainer', 'it holds the container definition an editor builds and runs'],
])

/** Two-level directories (`.github/workflows`). */
const nestedDirectories: ReadonlyMap<string, string> = new Map([
  ['.github/workflows', 'it holds CI workflows that run with the repository\'s secrets'],
  ['.gitlab/ci', 'it holds CI definitions'],
])

/** File names (any directory): build and tool files whose content tools execute or obey. */
const files: ReadonlyMap<string, string> = new Map([
  ['.envrc', 'direnv runs it when a shell enters the directory'],
  ['.mcp.json', 'it starts MCP servers (commands) for agents'],
  ['package.json', 'npm, yarn and pnpm run its scripts (npm test, npm install)'],
  ['.npmrc', 'npm reads it (registries, scripts, tokens)'],
  ['.yarnrc', 'yarn reads it'],
  ['.yarnrc.yml', 'yarn reads it (plugins, paths it runs)'],
  ['.pnpmfile.cjs', 'pnpm runs it at install'],
  ['Makefile', 'make runs its recipes'],
  ['makefile', 'make runs its recipes'],
  ['GNUmakefile', 'make runs its recipes'],
  ['justfile', 'just runs its recipes'],
  ['Justfile', 'just runs its recipes'],
  ['pyproject.toml', 'Python build tools run what it names'],
  ['setup.py', 'pip runs it at install'],
  ['conftest.py', 'pytest runs it at every test run'],
  ['Cargo.toml', 'cargo builds and runs what it names'],
  ['build.rs', 'cargo runs it at every build'],
  ['.gitattributes', 'git runs the filters and diff drivers it names'],
  ['.gitmodules', 'git fetches and checks out what it names'],
  ['.pre-commit-config.yaml', 'pre-commit runs its hooks at every commit'],
  ['.bashrc', 'shells run it at start'],
  ['.bash_profile', 'shells run it at start'],
  ['.profile', 'shells run it at start'],
  ['.zshrc', 'shells run it at start'],
])

/**
 * Why a change of the path (its components below the root) is protected, or undefined. A
 * component `.dsh…` (dsh's project files), one of the directories above, or an executable file.
 */
export function protectedFileReason(components: readonly string[], executable: boolean): string | undefined {
  for (let index = 0; index < components.length; index++) {
    const name = components[index] ?? ''
    const last = index === components.length - 1
    // maintainer-doc-guard's documents folder holds the model's own ledger; its operator
    // documents are guarded there (operatorDocsReadOnly).
    if (name.startsWith('.dsh') && name !== '.dsh-maintainer-doc-guard') return 'it is one of dsh\'s own project files (.dsh…), which steer the agent'
    if (!last) {
      const dir = directories.get(name) ?? nestedDirectories.get(`${name}/${components[index + 1] ?? ''}`)
      if (dir !== undefined) return dir
    }
  }
  const base = components.at(-1) ?? ''
  const file = files.get(base)
  if (file !== undefined) return file
  if (executable) return 'it is an executable file, which commands may run'
  return undefined
}

/** The protected file names and directories, for the README and tests. */
export const protectedFileList: { readonly directories: readonly string[]; readonly files: readonly string[] } = {
  directories: ['.dsh*', ...directories.keys(), ...nestedDirectories.keys()],
  files: [...files.keys()],
}
