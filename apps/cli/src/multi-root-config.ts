/**
 * The CLI's composition of the multi-root-workspace plugin config: the config file's
 * `multiRootWorkspace` section, the discovery settings of its `workspaceContext` section (the same
 * candidate names and limits apply in every root), and the resolved `$DSH_HOME` (the registry).
 */
import type { ConfigInput } from '@dsh/multi-root-workspace'
import type { ConfigFile } from './config-file.ts'

/** Mount config of the plugin. */
export function multiRootConfig(config: ConfigFile, dshHome: string): ConfigInput {
  const section = config.workspaceContext
  const shared: ConfigInput =
    section === undefined
      ? {}
      : {
          instructionFileCandidates: section.instructionFileCandidates,
          localInstructionFileCandidates: section.localInstructionFileCandidates,
          candidatePolicy: section.candidatePolicy,
          followSymlinks: section.followSymlinks,
          maxSourceBytes: section.maxSourceBytes,
          directoryVersions: section.directoryVersions,
          versionSettleMs: section.versionSettleMs,
        }
  return { ...config.multiRootWorkspace, ...shared, dshHome }
}

/** True unless the config file turns the plugin off. */
export const multiRootEnabled = (config: ConfigFile): boolean => config.multiRootWorkspace?.enabled !== false
