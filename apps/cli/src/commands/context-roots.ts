/**
 * The additional-roots part of `dsh context`: the roots registered for the working directory
 * with their states and top-level instruction files, and `dsh context why PATH` for a path inside
 * an available additional root (the same candidate names and limits as the workspaceContext
 * section). Nothing is shown when the config file turns the plugin off.
 */
import type { FileSystemPort } from '@dsh/contracts'
import { explainRootPath, formatRootPathExplanation, formatRootsReport, inspectRoots, resolveConfig, RootRegistry, type RootsReport } from '@dsh/multi-root-workspace'
import type { ConfigFile } from '../config-file.ts'
import { multiRootConfig, multiRootEnabled } from '../multi-root-config.ts'

/** What both reports need. */
export interface RootsContextInput {
  readonly cwd: string
  readonly dshHome: string
  readonly config: ConfigFile
  readonly fs: FileSystemPort
}

function optionsOf(input: RootsContextInput) {
  const resolved = resolveConfig(multiRootConfig(input.config, input.dshHome))
  return { registry: new RootRegistry({ dshHome: input.dshHome }), primary: input.cwd, fs: input.fs, discovery: resolved.discovery }
}

/** Canonical paths of the available registered roots: links into them are trusted (decision D3). */
export function registeredTrustedRoots(input: Omit<RootsContextInput, 'fs'>): string[] {
  if (!multiRootEnabled(input.config)) return []
  return new RootRegistry({ dshHome: input.dshHome })
    .list(input.cwd)
    .roots.filter((root) => root.state === 'available')
    .map((root) => root.recordedPath)
}

/** The report (`undefined` when the plugin is off). */
export async function additionalRootsReport(input: RootsContextInput): Promise<RootsReport | undefined> {
  return multiRootEnabled(input.config) ? inspectRoots(optionsOf(input)) : undefined
}

/** Terminal text of the report (`''` when there is nothing to show). */
export const additionalRootsText = (report: RootsReport | undefined): string => (report === undefined ? '' : formatRootsReport(report))

/** `dsh context why PATH` inside an additional root: the text, or `undefined` for any other path. */
export async function explainInAdditionalRoot(input: RootsContextInput, path: string, json: boolean): Promise<string | undefined> {
  if (!multiRootEnabled(input.config)) return undefined
  const explanation = await explainRootPath({ ...optionsOf(input), path, cwd: input.cwd })
  if (explanation === undefined) return undefined
  return json ? JSON.stringify(explanation, null, 2) : formatRootPathExplanation(explanation)
}
