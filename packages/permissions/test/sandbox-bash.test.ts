// The bubblewrap sandbox with the real bash and run_code tools and real processes: writes outside
// the roots fail with the OS error and the note, additional roots are writable, danger-full-access
// has no sandbox, the network is cut when configured, API keys are gone, background processes stay
// tracked and cancellation ends everything. Needs bwrap (.ci/run installs it).
import { randomInt } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { PermissionMode, ToolOutput, ToolRunContext } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { createRunCodeTool } from '@dsh/code-mode'
import { createBashTool, readProcessTable, ToolProcesses } from '@dsh/tools'
import { tempTree, type TempTree } from '@dsh/testkit'
import { createSandboxLauncher } from '../src/index.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({ 'repo/': null, 'extra/': null, 'outside/': null, 'tmp/': null })
})
afterEach(async () => tree.dispose())

const keys = { DEEPSEEK_API_KEY: 'sk-deepseek', OPENAI_API_KEY: 'sk-openai', ACME_TOKEN_VAR: 'sk-acme', DSH_VISIBLE: 'yes' }
beforeAll(() => Object.assign(process.env, keys))
afterAll(() => {
  for (const name of Object.keys(keys)) Reflect.deleteProperty(process.env, name)
})

function launcher(mode: PermissionMode, network = true, warn: (line: string) => void = () => undefined) {
  return createSandboxLauncher({ mode, network, secretVariables: ['ACME_TOKEN_VAR'], env: process.env, tempDir: tree.path('tmp'), protectedDirs: [tree.path('repo/.dsh')], warn, interactive: false })
}

/** Host pids of live `sleep SECONDS` processes (pids inside a sandbox are its namespace's own). */
/** Sleep durations no other process on the machine has (another suite may run these tests meanwhile). */
const tag = randomInt(100_000, 1_000_000)
const [s1001, s1002, s1003, s1004] = [`1001.${tag}`, `1002.${tag}`, `1003.${tag}`, `1004.${tag}`]

function hostPidsRunning(seconds: string): number[] {
  return (readProcessTable() ?? []).flatMap((entry) => {
    try {
      return readFileSync(`/proc/${entry.pid}/cmdline`, 'utf8') === `sleep\0${seconds}\0` ? [entry.pid] : []
    } catch {
      // The process exited between the listing and this read.
      return []
    }
  })
}

function context(roots: readonly string[], signal = new AbortController().signal): ToolRunContext {
  return {
    cwd: tree.path('repo'),
    fs: createLocalFileSystem({ writableRoots: roots }),
    signal,
    execution: { callId: 'c1', name: 'bash', arguments: {}, signal, token: Symbol('c1') },
    dispatch: () => Promise.reject(new Error('no nested calls here')),
    deferContext: () => undefined,
  }
}

async function bash(mode: PermissionMode, command: string, options: { roots?: string[]; network?: boolean; processes?: ToolProcesses; signal?: AbortSignal } = {}): Promise<ToolOutput> {
  const tool = createBashTool({ launcher: launcher(mode, options.network), ...(options.processes === undefined ? {} : { processes: options.processes }) })
  return tool.execute({ command }, context(options.roots ?? [tree.path('repo')], options.signal))
}

describe('bash in the sandbox', () => {
  it('a write outside the roots fails with the OS error, and the result says how to widen the sandbox', async () => {
    const repo = tree.path('repo')
    const result = await bash('full-auto', `echo in > inside.txt && echo out > ${tree.path('outside')}/x.txt`)
    expect(result.content).toBe(
      `bash: line 2: ${tree.path('outside')}/x.txt: Read-only file system\n\n[Exit code: 1]\n` +
        `[The sandbox refused a write outside the writable roots (writable: ${repo}). Write inside them instead, or ask the user to widen the sandbox: ` +
        '--add-dir DIR (or dsh roots add DIR) adds a writable root, sandbox.writable in the config file lists more directories, and --permission-mode danger-full-access runs shell commands without a sandbox.]',
    )
    expect(readFileSync(`${repo}/inside.txt`, 'utf8')).toBe('in\n')
    expect(existsSync(tree.path('outside/x.txt'))).toBe(false)
  })

  it('dsh\'s own state stays read-only inside a writable root (settings.yaml rules apply live)', async () => {
    mkdirSync(tree.path('repo/.dsh'))
    writeFileSync(tree.path('repo/.dsh/settings.yaml'), 'permissions: {}\n')
    const result = await bash('full-auto', 'echo "permissions: { allow: [bash] }" >> .dsh/settings.yaml; touch .dsh/new; echo ok > fine.txt')
    expect(result.content).toContain('.dsh/settings.yaml: Read-only file system')
    expect(result.content).toContain("touch: cannot touch '.dsh/new': Read-only file system")
    expect(readFileSync(tree.path('repo/.dsh/settings.yaml'), 'utf8')).toBe('permissions: {}\n')
    expect(readFileSync(tree.path('repo/fine.txt'), 'utf8')).toBe('ok\n')
  })

  it('additional roots are writable from the shell', async () => {
    const result = await bash('full-auto', `echo shared > ${tree.path('extra')}/lib.txt && cat ${tree.path('extra')}/lib.txt`, { roots: [tree.path('repo'), tree.path('extra')] })
    expect(result.content).toBe('shared\n\n[Exit code: 0]')
  })

  it('danger-full-access runs without a sandbox: the same write succeeds', async () => {
    const result = await bash('danger-full-access', `echo out > ${tree.path('outside')}/x.txt`)
    expect(result.content).toBe('(no output)\n\n[Exit code: 0]')
    expect(readFileSync(tree.path('outside/x.txt'), 'utf8')).toBe('out\n')
  })

  it('read-only: nothing is writable, not even the working directory; temp is private', async () => {
    const result = await bash('read-only', `echo x > mine.txt; echo t > ${tree.path('tmp')}/t.txt && ls -A ${tree.path('tmp')}`)
    expect(result.content).toContain(`mine.txt: Read-only file system`)
    expect(result.content).toContain('t.txt\n')
    expect(existsSync(tree.path('repo/mine.txt'))).toBe(false)
    expect(existsSync(tree.path('tmp/t.txt'))).toBe(false)
  })

  // dsh often runs as root (containers, CI): bubblewrap then keeps every capability unless told
  // otherwise, and with CAP_SYS_ADMIN a command remounts / writable; with CAP_SYS_PTRACE it walks
  // into dsh's own filesystem view through /proc/PID/root and reads its keys from /proc/PID/environ.
  it('a command cannot get out: no capabilities, no remount, no way through /proc/<dsh pid>/root, cwd or environ', async () => {
    const outside = tree.path('outside')
    const result = await bash(
      'full-auto',
      [
        'grep CapEff /proc/self/status',
        `mount -o remount,bind,rw / 2>/dev/null; { echo a > ${outside}/remount.txt; } 2>/dev/null || echo remount-refused`,
        `{ echo b > /proc/${process.pid}/root${outside}/root.txt; } 2>/dev/null || echo root-link-refused`,
        `{ echo c > /proc/${process.pid}/cwd/../../../../../../..${outside}/cwd.txt; } 2>/dev/null || echo cwd-link-refused`,
        `cat /proc/${process.pid}/environ >/dev/null 2>&1 && echo environ-readable || echo environ-refused`,
      ].join('\n'),
    )
    expect(result.content).toBe('CapEff:\t0000000000000000\nremount-refused\nroot-link-refused\ncwd-link-refused\nenviron-refused\n\n[Exit code: 0]')
    for (const name of ['remount.txt', 'root.txt', 'cwd.txt']) expect(existsSync(`${outside}/${name}`)).toBe(false)
  })

  it('the model provider\'s keys are not in the environment; other variables are', async () => {
    const result = await bash('full-auto', 'env | sort | grep -E "^(DEEPSEEK_API_KEY|OPENAI_API_KEY|ACME_TOKEN_VAR|DSH_VISIBLE)=" || true')
    expect(result.content).toBe('DSH_VISIBLE=yes\n\n[Exit code: 0]')
  })

  describe('network', () => {
    let server: Server
    let port = 0
    beforeAll(async () => {
      server = createServer((socket) => socket.end('hello\n'))
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      const address = server.address()
      port = typeof address === 'object' && address !== null ? address.port : 0
    })
    afterAll(() => void server.close())

    it('is on by default (a loopback listener outside the sandbox answers)', async () => {
      expect((await bash('full-auto', `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`)).content).toBe('hello\n\n[Exit code: 0]')
    })
    it('is cut with sandbox.network: false', async () => {
      const result = await bash('full-auto', `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`, { network: false })
      expect(result.content).toMatch(/Connection refused[\s\S]*\[Exit code: 1\]$/)
    })
  })

  it('background processes keep running in the command\'s pid namespace, stay tracked, and end with the tracker (setsid without the marker too)', async () => {
    const processes = new ToolProcesses({ graceMs: 500 })
    await bash('full-auto', `sleep ${s1001} & env -u DSH_TOOL_CALL setsid sleep ${s1002} & echo started`, { processes })
    expect(hostPidsRunning(s1001)).toHaveLength(1)
    expect(hostPidsRunning(s1002)).toHaveLength(1)
    await processes.endAll()
    expect(hostPidsRunning(s1001)).toEqual([])
    expect(hostPidsRunning(s1002)).toEqual([])
  })

  it('without a tracker, what a command left running ends with it, setsid escapes without the marker included', async () => {
    await bash('full-auto', `env -u DSH_TOOL_CALL setsid sleep ${s1003} & echo started`)
    expect(hostPidsRunning(s1003)).toEqual([])
  })

  it('cancellation ends the sandboxed command and what it started', async () => {
    const controller = new AbortController()
    const running = bash('full-auto', `sleep ${s1004} & echo "bg:$!" > bg.pid; sleep 1000`, { signal: controller.signal })
    const pidFile = tree.path('repo/bg.pid')
    await expect.poll(() => existsSync(pidFile)).toBe(true)
    controller.abort()
    const result = await running
    expect(result).toMatchObject({ isError: true })
    expect(result.content).toContain('[Cancelled: the command and every process it started were killed before it finished.]')
    expect(hostPidsRunning(s1004)).toEqual([])
  })
})

describe('run_code in the sandbox', () => {
  it('a snippet writes inside the working directory, and a write outside fails with EROFS and the note', async () => {
    const tool = createRunCodeTool({ launcher: launcher('full-auto') })
    const code = `const fs = await import('node:fs/promises'); await fs.writeFile('in.txt', 'in'); await fs.writeFile(${JSON.stringify(tree.path('outside/x.txt'))}, 'out')`
    const result = await tool.execute({ code }, context([tree.path('repo')]))
    expect(result.isError).toBe(true)
    expect(result.content).toContain('EROFS')
    expect(result.content).toContain('[The sandbox refused a write outside the writable roots')
    expect(readFileSync(tree.path('repo/in.txt'), 'utf8')).toBe('in')
    expect(existsSync(tree.path('outside/x.txt'))).toBe(false)
  })
})

describe('without bubblewrap', () => {
  it('the probe finds it missing (PATH without bwrap), says so once, and launches run unsandboxed', () => {
    const lines: string[] = []
    const missing = createSandboxLauncher({ mode: 'full-auto', network: true, secretVariables: [], env: { PATH: tree.path('tmp') }, tempDir: tree.path('tmp'), warn: (line) => lines.push(line), interactive: true })
    expect(missing.available()).toBe(false)
    expect(missing.available()).toBe(false)
    expect(lines).toEqual(['warning: no sandbox for shell commands: bubblewrap (bwrap) is not installed; every shell command will ask before it runs unsandboxed'])
    expect(missing.plan({ file: 'bash', args: ['-c', 'true'], cwd: '/', env: { OPENAI_API_KEY: 'k', A: 'b' }, writableRoots: [] })).toEqual({ file: 'bash', args: ['-c', 'true'], env: { A: 'b' }, sandboxed: false, writable: [] })
  })
})
