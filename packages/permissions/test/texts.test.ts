// Golden text of what the model and the user read: denial reasons and recoveries, the sandbox
// note, the unavailable-sandbox line, the bubblewrap command line and the macOS profile.
import { describe, expect, it } from 'vitest'
import { bwrapArguments, decide, sandboxRefusalNote, seatbeltProfile, suggestedRule, unavailableLine } from '../src/index.ts'

const cwd = '/work/repo'
/** The prelude every sandboxed launch starts with: close inherited descriptors but 0–2 and Node's IPC channel. */
const closeFds = 'for f in /proc/self/fd/*; do n=${f##*/}; case $n in 0|1|2|"$NODE_CHANNEL_FD") ;; *) eval "exec $n>&-";; esac; done; exec "$@"'
const denial = (input: Partial<Parameters<typeof decide>[0]> & Pick<Parameters<typeof decide>[0], 'call'>) => {
  const decision = decide({ mode: 'ask', allow: [], deny: [], session: [], sandboxAvailable: true, interactive: false, ...input })
  return decision.verdict === 'deny' ? `${decision.text.reason}. ${decision.text.recovery}` : decision.verdict
}

describe('denials', () => {
  it('dsh run in ask mode names the rule and the mode that allow the call', () => {
    expect(denial({ call: { tool: 'run_code', args: { code: 'return 1' }, cwd } })).toBe(
      "permission mode ask needs the user's approval for run_code, and dsh run cannot ask. Tell the user that dsh run allows it with --allow 'run_code' or --permission-mode full-auto (shell commands stay sandboxed to the writable roots; --add-dir adds a root); meanwhile choose another approach.",
    )
    expect(denial({ call: { tool: 'write', args: { file_path: '/work/other/it\'s.txt', content: '' }, cwd } })).toBe(
      "permission mode ask needs the user's approval for write, and dsh run cannot ask. Tell the user that dsh run allows it with --allow 'write(/work/other/it'\\''s.txt)' or --permission-mode full-auto (shell commands stay sandboxed to the writable roots; --add-dir adds a root); meanwhile choose another approach.",
    )
  })
  it('read-only, no sandbox, and both', () => {
    expect(denial({ mode: 'read-only', call: { tool: 'edit', args: { file_path: 'a' }, cwd } })).toBe(
      'the permission mode is read-only, which allows no file changes. Answer without changing files; if changes are needed, tell the user they can allow them with --permission-mode auto-edit or full-auto.',
    )
    expect(denial({ mode: 'full-auto', sandboxAvailable: false, call: { tool: 'bash', args: { command: 'ls' }, cwd } })).toBe(
      'shell commands need the sandbox, which is not available here (bubblewrap is missing or cannot start), and dsh run does not run them unsandboxed. Use read, glob, grep, write and edit instead; tell the user to install bubblewrap, or to run dsh run with --permission-mode danger-full-access to allow shell commands without a sandbox.',
    )
    expect(denial({ mode: 'read-only', sandboxAvailable: false, interactive: true, call: { tool: 'bash', args: { command: 'ls' }, cwd } })).toBe(
      'the permission mode is read-only and no sandbox is available to keep a shell command from writing (bubblewrap is missing or cannot start). Use read, glob and grep instead; tell the user to install bubblewrap to allow shell commands in read-only mode.',
    )
  })
  it('a write into dsh\'s own state where nobody can be asked', () => {
    expect(denial({ mode: 'full-auto', protectedDirs: ['/home/me/.dsh'], call: { tool: 'write', args: { file_path: '/home/me/.dsh/settings.yaml', content: '' }, cwd } })).toBe(
      "the path is part of dsh's own settings and sessions (/home/me/.dsh), which the model never changes without the user's approval, and dsh run cannot ask. Do not try to change dsh's settings or session logs some other way; tell the user what change you suggest, and they can make it themselves.",
    )
  })
  it('suggested rules: a command prefix, a path inside the cwd, or the tool', () => {
    expect(suggestedRule({ tool: 'bash', args: { command: 'git push origin main' }, cwd })).toBe('bash(git push:*)')
    expect(suggestedRule({ tool: 'bash', args: { command: 'ls | wc -l' }, cwd })).toBe('bash')
    // A command runner gets the command itself, never its prefix (`bash(timeout:*)` would allow `timeout 5 rm -rf src`).
    expect(suggestedRule({ tool: 'bash', args: { command: 'timeout  60 npm test' }, cwd })).toBe('bash(timeout 60 npm test)')
    expect(suggestedRule({ tool: 'bash', args: { command: 'xargs rm *.tmp' }, cwd })).toBe('bash')
    expect(suggestedRule({ tool: 'bash', args: { command: 'time npm test' }, cwd })).toBe('bash(npm test:*)')
    expect(suggestedRule({ tool: 'edit', args: { file_path: 'src/a.ts' }, cwd })).toBe('edit(src/a.ts)')
  })
})

describe('sandbox texts', () => {
  it('the refusal note, in read-only mode too, and nothing without EROFS', () => {
    expect(sandboxRefusalNote('touch: cannot touch \'/x\': Read-only file system', { writable: [] })).toBe(
      '[The sandbox refused a write: the permission mode is read-only, so shell commands cannot change files (only a private temp directory, discarded afterwards, is writable). Answer without changing files; if changes are needed, tell the user they can allow them with --permission-mode auto-edit or full-auto.]',
    )
    expect(sandboxRefusalNote('Permission denied', { writable: ['/a'] })).toBeUndefined()
  })
  it('the refusal note names the protected files inside the roots the output names, and a busy file alone counts', () => {
    const context = { writable: ['/r'], cwd: '/r', protectedInside: ['/r/run.sh', '/r/.git/config', '/r/tools/x'] }
    expect(sandboxRefusalNote("bash: run.sh: Read-only file system\nerror: unable to unlink old 'tools/x': Device or resource busy", context)).toBe(
      '[The sandbox refused to change /r/run.sh, /r/tools/x: inside the writable roots, the files that programs outside the sandbox run later are read-only to shell commands (git config and hooks, .dsh*, .claude, .vscode, .idea, .envrc, .mcp.json, and the executable files of the repository). A git command that stopped on one ("unable to unlink", "Device or resource busy") may have left the work tree partly changed: check git status. To change such a file, use the write or edit tool (the user is asked), or ask the user to run the command.]',
    )
    expect(sandboxRefusalNote("touch: cannot touch '/etc/x': Read-only file system", context)).toMatch(/^\[The sandbox refused a write outside the writable roots \(writable: \/r\)/)
    expect(sandboxRefusalNote("rm: cannot remove 'other': Device or resource busy", context)).toBeUndefined()
  })
  it('the line said once when bubblewrap cannot start', () => {
    expect(unavailableLine({ kind: 'broken', detail: 'bwrap: No permissions to create new namespace' }, false)).toBe(
      'warning: no sandbox for shell commands: bubblewrap cannot start (bwrap: No permissions to create new namespace); shell commands are refused unless --permission-mode danger-full-access',
    )
    expect(unavailableLine({ kind: 'available' }, true)).toBeUndefined()
  })
  it('the bubblewrap command line', () => {
    expect(bwrapArguments({ writable: ['/work/repo', '/tmp'], protectedDirs: ['/work/repo/.dsh'], privateTemp: [], network: false }, '/work/repo', 'bash', ['-c', 'ls']).join(' ')).toBe(
      '--ro-bind / / --dev /dev --unshare-pid --unshare-ipc --proc /proc --cap-drop ALL --bind-try /work/repo /work/repo --bind-try /tmp /tmp --ro-bind-try /work/repo/.dsh /work/repo/.dsh --unshare-net --die-with-parent --chdir /work/repo -- ' +
        `bash -c ${closeFds} dsh-sandbox bash -c ls`,
    )
    expect(bwrapArguments({ writable: [], privateTemp: ['/tmp'], reexposed: ['/tmp/repo'], network: true }, '/tmp/repo', 'node', []).join(' ')).toBe(
      `--ro-bind / / --dev /dev --unshare-pid --unshare-ipc --proc /proc --cap-drop ALL --tmpfs /tmp --ro-bind-try /tmp/repo /tmp/repo --die-with-parent --chdir /tmp/repo -- bash -c ${closeFds} dsh-sandbox node`,
    )
  })
  it('the macOS Seatbelt profile', () => {
    expect(seatbeltProfile({ writable: ['/Users/me/repo', '/private/tmp', '/Users/me/we"ird'], network: false })).toBe(
      [
        '(version 1)',
        '(deny default)',
        '(allow process-exec process-fork)',
        '(allow signal (target same-sandbox))',
        '(allow sysctl-read mach-lookup ipc-posix-shm pseudo-tty)',
        '(allow file-read*)',
        '(allow file-write*',
        '  (subpath "/Users/me/repo")',
        '  (subpath "/private/tmp")',
        '  (subpath "/Users/me/we\\"ird")',
        '  (literal "/dev/null")',
        '  (literal "/dev/zero")',
        '  (literal "/dev/tty")',
        '  (literal "/dev/stdout")',
        '  (literal "/dev/stderr")',
        '  (literal "/dev/dtracehelper")',
        ')',
        '(allow network* (remote unix-socket))',
        '',
      ].join('\n'),
    )
    expect(seatbeltProfile({ writable: [], network: true })).toContain('\n(allow network*)\n')
  })
})
