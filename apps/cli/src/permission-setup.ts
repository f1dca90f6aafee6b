/**
 * Installs the permission policy and the shell sandbox on a composed host: the mode and rules from
 * the command line, the config file (`permissions:`, `sandbox:`) and the live `permissions`
 * namespace of `$DSH_HOME/settings.yaml`, and the deny lists of Claude Code's settings files
 * (claude-deny-rules.ts; rules are the union of them all; deny wins), the
 * bubblewrap launcher the `bash` and `run_code` tools were given, and the guard with the front
 * end's asker (none for `dsh run`).
 */
import { realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { FileSystemPort, PermissionMode } from '@dsh/contracts'
import { createSandboxLauncher, installPermissionGuard, mergeRules, permissionSettingsSchema, resolveMode, secretReadPaths, usableRules, type PermissionControls, type RuleTexts, type SandboxLauncher } from '@dsh/permissions'
import { userHome, type AskPermission, type Host } from '@dsh/runtime'
import { claudeDenyRules } from './claude-deny-rules.ts'
import type { ConfigFile } from './config-file.ts'
import type { ComposePermissions } from './permission-options.ts'

/** The mode and the launcher, before the host exists (tools need the launcher). */
export interface SandboxSetup {
  readonly mode: PermissionMode
  readonly launcher: SandboxLauncher
  /** dsh's own state (`$DSH_HOME` and the config file, canonical): read-only to the shell, and writes there always ask. */
  readonly protectedDirs: readonly string[]
}

/** Inputs of {@link sandboxSetup}. */
export interface SandboxSetupOptions {
  readonly config: ConfigFile
  readonly permissions: ComposePermissions
  /** True when the front end can ask (chat, ACP, web). */
  readonly interactive: boolean
  readonly log: (line: string) => void
  /** Resolved home (`$DSH_HOME`): its settings and session logs are protected from the model. */
  readonly dshHome: string
  /** The config file in use (absolute), protected the same way. */
  readonly configPath?: string | undefined
}

/** The canonical path of `dir` (as given when it does not exist yet). */
function canonical(dir: string): string {
  try {
    return realpathSync(dir)
  } catch {
    // Not there yet (the host creates it): the resolved path is what later writes will name.
    return resolve(dir)
  }
}

/** Where credentials and session logs live: read, grep and glob refuse them, listings leave them out. */
export function secretLocations(dshHome: string): string[] {
  return secretReadPaths({ home: userHome(), dshHome })
}

/** `fs` telling `exempt` of every path it is about to write (before it writes, so a sweep never takes it for a plant). */
export function exemptingWrites(fs: FileSystemPort, exempt: (path: string) => void): FileSystemPort {
  return {
    ...fs,
    writeText: (path, content, writeOptions) => {
      exempt(path)
      return fs.writeText(path, content, writeOptions)
    },
    editText: (path, edit, editOptions) => {
      exempt(path)
      return fs.editText(path, edit, editOptions)
    },
    // A session's view (its write grant) writes through the same hook.
    ...(fs.withWritableRoots === undefined ? {} : { withWritableRoots: (roots: () => readonly string[]) => exemptingWrites(fs.withWritableRoots?.(roots) ?? fs, exempt) }),
  }
}

/** Resolves the mode and creates the launcher. */
export function sandboxSetup(options: SandboxSetupOptions): SandboxSetup {
  const { config, permissions } = options
  const mode = resolveMode({ cli: permissions.mode, config: config.permissions?.mode, frontEnd: permissions.defaultMode })
  const keyEnv = config.model?.apiKeyEnv
  const protectedDirs = [options.dshHome, ...(options.configPath === undefined ? [] : [options.configPath])].map(canonical)
  const launcher = createSandboxLauncher({
    mode,
    network: config.sandbox?.network ?? true,
    secretVariables: keyEnv === undefined ? [] : [keyEnv],
    passEnv: config.sandbox?.passEnv ?? [],
    env: process.env,
    home: userHome(),
    dshHome: canonical(options.dshHome),
    uid: process.getuid?.() ?? -1,
    tempDir: tmpdir(),
    extraWritable: config.sandbox?.writable ?? [],
    protectedDirs,
    warn: options.log,
    interactive: options.interactive,
  })
  return { mode, launcher, protectedDirs }
}

/** One allow or deny rule in force and where it was written. */
export interface RuleRow {
  readonly effect: 'allow' | 'deny'
  readonly text: string
  /** `config file PATH`, `$DSH_HOME/settings.yaml`, `command line` (session rules come from the controls). */
  readonly source: string
}

/** What {@link installPermissions} gives the front ends. */
export interface InstalledPermissions {
  /** The `askPermission` the host must use (undefined: nobody to ask). */
  readonly askPermission: AskPermission | undefined
  /** The session mode and session rules (the chat's `/mode` and `/permissions`). */
  readonly controls: PermissionControls
  /** The configured rules in force now, with their sources (settings.yaml read again). */
  readonly configuredRules: () => RuleRow[]
}

function rows(layer: RuleTexts, source: string): RuleRow[] {
  return [...(layer.deny ?? []).map((text) => ({ effect: 'deny' as const, text, source })), ...(layer.allow ?? []).map((text) => ({ effect: 'allow' as const, text, source }))]
}

/** Installs the guard. */
export function installPermissions(host: Host, sandbox: SandboxSetup, options: SandboxSetupOptions & { readonly ask?: AskPermission | undefined; readonly cwd: string }): InstalledPermissions {
  const live = host.ctx.settings.register('permissions', permissionSettingsSchema, { base: { allow: [], deny: [] } })
  const { config, permissions } = options
  // Each bad rule of settings.yaml is said once (it is read again at every decision).
  const said = new Set<string>()
  const report = (line: string): void => {
    if (said.has(line)) return
    said.add(line)
    options.log(line)
  }
  const settingsRules = (): RuleTexts => usableRules(live.get(), 'settings.yaml: permissions', report)
  settingsRules()
  // Claude Code's deny lists (user and project): read once; they can only take permissions away.
  const claude = claudeDenyRules({ home: userHome(), cwd: options.cwd, report })
  const claudeRules: RuleTexts = { deny: claude.flatMap((layer) => layer.deny) }
  const guard = installPermissionGuard(host.ctx, {
    mode: sandbox.mode,
    // Read at every decision: an edit of settings.yaml applies at the next call.
    rules: () => mergeRules([config.permissions ?? {}, settingsRules(), claudeRules, { allow: permissions.allow, deny: permissions.deny }]),
    sandboxAvailable: () => sandbox.launcher.available(),
    ask: options.ask,
    cwd: options.cwd,
    protectedDirs: sandbox.protectedDirs,
    // What the session's write and edit may change (runtime write-grants.ts): its directory, the
    // temp directory every session shares, and its available additional roots.
    writableRoots: (agent) => [agent.session.header.cwd, tmpdir(), ...(host.ctx.get('workspaceRoots')?.session(agent.session).writableRoots() ?? [])],
    // read, grep and glob refuse these unless a read(...) allow rule names them.
    secretPaths: secretLocations(options.dshHome),
    // An allowed write or edit is dsh's own: what it creates is not reverted as a command's plant
    // (also when an editor writes it for dsh, ACP).
    onAllowedWrite: (path) => sandbox.launcher.exempt(path),
  })
  const configuredRules = (): RuleRow[] => [
    ...rows(config.permissions ?? {}, options.configPath === undefined ? 'config file' : `config file ${options.configPath}`),
    ...rows(settingsRules(), join(options.dshHome, 'settings.yaml')),
    ...claude.flatMap((layer) => rows({ deny: layer.deny }, `Claude Code settings ${layer.file}`)),
    ...rows({ allow: permissions.allow, deny: permissions.deny }, 'command line'),
  ]
  return { askPermission: guard.askPermission, controls: guard.controls, configuredRules }
}
