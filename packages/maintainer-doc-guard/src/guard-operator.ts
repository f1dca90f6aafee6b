/**
 * The operator service of a running guard: its config, switches, counters, live settings and
 * live sessions, over a filesystem port of the operator's own and the host's session store.
 */
import type { FileSystemPort } from '@dsh/contracts'
import type { SessionStore } from '@dsh/runtime'
import { createOperatorService } from './operator-service.ts'
import type { OperatorService } from './operator-types.ts'
import type { MaintainerDocGuard } from './plugin.ts'
import { sessionDirectoryOf } from './session-directory.ts'

/** Options of {@link operatorServiceFor}. */
export interface GuardOperatorOptions {
  /** A port of the operator's own, e.g. `createLocalFileSystem({ writableRoots: [] })`. */
  readonly fs: FileSystemPort
  readonly sessions: SessionStore
  readonly dshHome: string
  /** See `OperatorServiceOptions.beforeSave`. */
  readonly beforeSave?: (path: string) => void
}

/** The operator service over `guard`. */
export function operatorServiceFor(guard: MaintainerDocGuard, options: GuardOperatorOptions): OperatorService {
  return createOperatorService({
    config: guard.base,
    fs: options.fs,
    sessions: sessionDirectoryOf(options.sessions),
    dshHome: options.dshHome,
    switches: guard.switches,
    counters: guard.counters,
    liveSettings: () => guard.liveSettings(),
    liveSessions: () => guard.states.liveIds(),
    ...(options.beforeSave === undefined ? {} : { beforeSave: options.beforeSave }),
  })
}
