/**
 * Types of the operator API (what `dsh docs`, `/docs` and the web panel call), kept apart from
 * the implementation so front ends depend on the shape only.
 */
import type { CountersSnapshot } from './counters.ts'
import type { DocumentLevel } from './document-paths.ts'
import type { LiveSettings } from './live-settings.ts'
import type { SweepPreview } from './orphan-sweep.ts'
import type { WriteLevel } from './session-documents.ts'
import type { SwitchValues } from './switches.ts'

/** One document of a session. */
export interface DocumentEntry {
  readonly name: string
  /** `operator` (plan, conventions), `ledger` (lessons), `people` (never shown to the model) or `listed`. */
  readonly role: 'operator' | 'ledger' | 'people' | 'listed'
  /** Where the effective (non-blank) document lives; absent while every level is blank or missing. */
  readonly level?: DocumentLevel
  readonly path?: string
  readonly chars: number
  /** Where a save (`auto`) would go. */
  readonly saveTo: string
  /** Where a save at each explicit level would go (`dsh docs edit --level`). */
  readonly saveTargets: { readonly session: string; readonly workspace: string }
  /** Locations that exist but could not be used. */
  readonly problems: readonly { readonly path: string; readonly reason: string }[]
}

/** The documents of one session. */
export interface DocumentsView {
  readonly sessionId: string
  readonly cwd: string
  /** The session's own documents folder. */
  readonly folder: string
  /** The workspace-level documents folder, shared by every session started in the cwd. */
  readonly workspaceFolder: string
  /** Names created by this open (first open). */
  readonly created: readonly string[]
  readonly documents: readonly DocumentEntry[]
}

/** Settings as the operator sees them. */
export interface SettingsView {
  readonly value: LiveSettings
  /** The composition config's values (what "restore default" restores). */
  readonly base: LiveSettings
  /** Fields whose value differs from the base. */
  readonly overridden: readonly (keyof LiveSettings)[]
}

/** The operator API. */
export interface OperatorService {
  /** Lists a session's documents, creating the missing ones on first open. */
  documents(sessionId: string): Promise<DocumentsView>
  /** The effective text of one document ('' when blank or missing). */
  read(sessionId: string, name: string): Promise<{ readonly name: string; readonly level?: DocumentLevel; readonly path?: string; readonly content: string }>
  /**
   * Saves one document atomically; returns where it went. With `expected` (the `documentVersion`
   * of the text the caller read) the check and the write are one step under a cross-process lock:
   * a document changed meanwhile is refused with `DOCS_CHANGED`. Text larger than a read accepts
   * is refused with `DOCS_TOO_LARGE`.
   */
  write(sessionId: string, name: string, content: string, level?: WriteLevel, options?: { readonly expected?: string | undefined }): Promise<{ readonly path: string; readonly bytes: number }>
  templates(): Promise<string[]>
  saveTemplate(sessionId: string, template: string): Promise<{ readonly path: string }>
  applyTemplate(sessionId: string, template: string): Promise<{ readonly path: string; readonly bytes: number }>
  switches(): SwitchValues
  setSwitches(patch: Partial<SwitchValues>): Promise<SwitchValues>
  settings(): SettingsView | undefined
  updateSettings(patch: Partial<LiveSettings>): Promise<SettingsView>
  previewSweep(sessionId: string): Promise<SweepPreview>
  /** Removes the previewed orphans that are still orphans; returns their names. */
  sweep(sessionId: string, names: readonly string[]): Promise<string[]>
  counters(): CountersSnapshot | undefined
}
