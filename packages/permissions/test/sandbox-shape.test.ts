// The parts of the sandbox that are plain data: the full bubblewrap command line of a writable
// sandbox (private temp, pinned .git, read-only files inside the root, masks, kept background),
// the environment filter with sandbox.passEnv, the masks computed from a real temp tree and a
// real environment, and what stays read-only inside the roots (nested repositories too).
import { mkdirSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { bwrapArguments, filterEnvironment, protectedInsideRoots, sandboxMasks } from '../src/index.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

describe('the sandbox shape', () => {
  it('orders binds so that what is protected and masked wins over what is writable', () => {
    const args = bwrapArguments(
      {
        writable: ['/w/repo'],
        privateTemp: [],
        tempBinding: { source: '/tmp/dsh-tmp-1-2-ab', target: '/tmp' },
        pinned: ['/w/repo/.git'],
        protectedDirs: ['/home/me/.dsh', '/w/repo/.git/config'],
        masked: [{ path: '/run/user/1000', kind: 'directory' }, { path: '/home/me/.netrc', kind: 'file' }],
        network: true,
        dieWithParent: false,
      },
      '/w/repo',
      'bash',
      ['-c', 'ls'],
    )
    expect(args.slice(0, args.indexOf('--')).join(' ')).toBe(
      '--ro-bind / / --dev /dev --unshare-pid --unshare-ipc --proc /proc --cap-drop ALL --bind /tmp/dsh-tmp-1-2-ab /tmp --bind-try /w/repo /w/repo --bind-try /w/repo/.git /w/repo/.git ' +
        '--ro-bind-try /home/me/.dsh /home/me/.dsh --ro-bind-try /w/repo/.git/config /w/repo/.git/config --tmpfs /run/user/1000 --ro-bind /dev/null /home/me/.netrc --chdir /w/repo',
    )
    expect(args.slice(args.indexOf('--') + 1, args.indexOf('--') + 3)).toEqual(['bash', '-c'])
    expect(args.slice(-4)).toEqual(['dsh-sandbox', 'bash', '-c', 'ls'])
  })

  it('the owner id the reaper looks for is in bubblewrap\'s own arguments', () => {
    const args = bwrapArguments({ writable: [], privateTemp: [], network: true, ownerId: 'dsh-sandbox-0123' }, '/', 'true', [])
    const at = args.indexOf('--setenv')
    expect(args.slice(at, at + 3)).toEqual(['--setenv', 'DSH_SANDBOX_OWNER', 'dsh-sandbox-0123'])
    expect(at).toBeLessThan(args.indexOf('--'))
  })

  it('a test-weakened sandbox shares the pid namespace (and nothing else changes)', () => {
    const args = bwrapArguments({ writable: [], privateTemp: [], network: true, sharePidNamespace: true }, '/', 'true', [])
    expect(args).not.toContain('--unshare-pid')
    expect(args).toContain('--unshare-ipc')
  })
})

describe('the environment of commands', () => {
  const env = {
    PATH: '/usr/bin',
    HOME: '/home/me',
    GITHUB_TOKEN: 'a',
    GH_HOST: 'b',
    AWS_PROFILE: 'c',
    NPM_CONFIG__AUTH: 'd',
    npm_config_registry: 'e',
    DB_PASSWORD: 'f',
    my_secret_value: 'g',
    GOOGLE_APPLICATION_CREDENTIALS: 'h',
    DEEPSEEK_API_KEY: 'i',
    MODEL_KEY: 'j',
    SSH_AUTH_SOCK: 'k',
    TMUX: 'l',
    TMUX_PANE: 'm',
    DBUS_SESSION_BUS_ADDRESS: 'n',
    DISPLAY: 'o',
    WAYLAND_DISPLAY: 'p',
    DSH_TOOL_CALL: 'q',
    TERM: 'r',
  }
  it('has no credentials and no session sockets', () => {
    expect(Object.keys(filterEnvironment(env, { drop: ['MODEL_KEY'] }))).toEqual(['PATH', 'HOME', 'npm_config_registry', 'DSH_TOOL_CALL', 'TERM'])
  })
  it('sandbox.passEnv keeps a variable by name, but never the configured model key', () => {
    expect(Object.keys(filterEnvironment(env, { drop: ['MODEL_KEY'], pass: ['GITHUB_TOKEN', 'SSH_AUTH_SOCK', 'MODEL_KEY'] }))).toEqual(['PATH', 'HOME', 'GITHUB_TOKEN', 'npm_config_registry', 'SSH_AUTH_SOCK', 'DSH_TOOL_CALL', 'TERM'])
  })
})

describe('masks and protected paths', () => {
  it('hide existing runtime directories, socket directories and secret locations, never a directory holding a root', async () => {
    tree = await tempTree({ 'home/.ssh/id': 'k', 'home/.netrc': 'n', 'home/work/repo/': null, 'run/': null, 'agent/s.sock': '', 'dsh/sessions/': null, 'tmux/tmux-7/default': '' })
    const t = tree
    const masks = sandboxMasks({
      env: { XDG_RUNTIME_DIR: t.path('run'), SSH_AUTH_SOCK: t.path('agent/s.sock'), TMUX_TMPDIR: t.path('tmux'), DBUS_SESSION_BUS_ADDRESS: `unix:path=${t.path('home/work/repo/bus')},guid=1` },
      home: t.path('home'),
      dshHome: t.path('dsh'),
      uid: 7,
      tempDir: t.path('tmp'),
      keep: [t.path('home/work/repo')],
    })
    // Machine-wide ones (/tmp/.X11-unix on a desktop) are left out of the comparison.
    expect(masks.filter((mask) => mask.path.startsWith(t.root))).toEqual([
      { path: t.path('run'), kind: 'directory' },
      { path: t.path('tmux/tmux-7'), kind: 'directory' },
      { path: t.path('agent'), kind: 'directory' },
      { path: t.path('home/.ssh'), kind: 'directory' },
      { path: t.path('home/.netrc'), kind: 'file' },
      { path: t.path('dsh/sessions'), kind: 'directory' },
    ])
  })

  it('pin .git and keep its config, hooks and info, the .dsh* entries and tool configs read-only', async () => {
    tree = await tempTree({ 'repo/.git/config': '', 'repo/.git/hooks/': null, 'repo/.dsh-maintainer-doc-guard/plan.md': '', 'repo/.dshrc': '', 'repo/.vscode/': null, 'repo/src/': null })
    const repo = tree.path('repo')
    mkdirSync(`${repo}/.git/objects`)
    writeFileSync(`${repo}/.envrc`, '')
    expect(protectedInsideRoots([repo])).toEqual({
      pinned: [`${repo}/.git`],
      readOnly: [`${repo}/.dsh-maintainer-doc-guard`, `${repo}/.dshrc`, `${repo}/.vscode`, `${repo}/.envrc`, `${repo}/.git/config`, `${repo}/.git/hooks`],
      absent: [`${repo}/.claude`, `${repo}/.idea`, `${repo}/.mcp.json`, `${repo}/.git/info`, `${repo}/.git/config.worktree`],
      dshNames: [{ root: repo, names: ['.dsh-maintainer-doc-guard', '.dshrc'] }],
      repositories: [{ root: repo, dirs: [`${repo}/.git`] }],
      worktrees: [{ worktree: repo, gitDir: `${repo}/.git` }],
    })
  })

  it('nested repositories, worktrees and submodules: pinned down to their git directory, whose config, hooks and pointers are read-only', async () => {
    tree = await tempTree({
      'r/.git/config': '',
      'r/.git/hooks/': null,
      'r/.git/worktrees/wt/commondir': '../..',
      'r/.git/worktrees/wt/gitdir': '',
      'r/.git/modules/lib/HEAD': '',
      'r/.git/modules/lib/config': '',
      'r/wt/.git': 'gitdir: ../.git/worktrees/wt\n',
      'r/src/vendor/x/.git/config': '',
      'r/node_modules/y/.git/config': '',
    })
    const r = tree.path('r')
    const inside = protectedInsideRoots([r])
    expect(inside.pinned).toEqual([`${r}/.git`, `${r}/src`, `${r}/wt`, `${r}/.git/modules`, `${r}/.git/worktrees`, `${r}/src/vendor`, `${r}/.git/modules/lib`, `${r}/.git/worktrees/wt`, `${r}/src/vendor/x`, `${r}/src/vendor/x/.git`])
    expect(inside.readOnly.toSorted()).toEqual(
      [`${r}/.git/config`, `${r}/.git/hooks`, `${r}/.git/worktrees/wt/commondir`, `${r}/.git/worktrees/wt/gitdir`, `${r}/.git/modules/lib/config`, `${r}/wt/.git`, `${r}/src/vendor/x/.git/config`].toSorted(),
    )
    expect(inside.absent).toContain(`${r}/src/vendor/x/.git/hooks`)
    expect(inside.absent).toContain(`${r}/.git/modules/lib/hooks`)
    expect(inside.absent).toContain(`${r}/.git/worktrees/wt/config.worktree`)
    expect(inside.absent).not.toContain(`${r}/.git/worktrees/wt/hooks`)
    expect(inside.readOnly.some((path) => path.includes('node_modules'))).toBe(false)
    // The work trees whose indexes name the executables: the root's, the nested one's, the worktree's (its own git directory).
    expect(inside.worktrees.toSorted((a, b) => (a.worktree < b.worktree ? -1 : 1))).toEqual([
      { worktree: r, gitDir: `${r}/.git` },
      { worktree: `${r}/src/vendor/x`, gitDir: `${r}/src/vendor/x/.git` },
      { worktree: `${r}/wt`, gitDir: `${r}/.git/worktrees/wt` },
    ])
  })
})
