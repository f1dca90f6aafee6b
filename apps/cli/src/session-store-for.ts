/**
 * The session store of the resolved `$DSH_HOME`, with warnings on stderr. Its own module so the
 * commands that open sessions (run, chat, rewind, compact) do not share a bundle chunk with
 * `dsh sessions`, and `dsh sessions list` loads only what listing needs.
 */
import { join } from 'node:path'
import { SessionStore } from '@dsh/runtime'
import { errLine, type CliIo } from './cli-io.ts'
import { dshHomeFrom } from './global-options.ts'

/** The store of the resolved home. */
export function storeFor(io: CliIo, dshHome: string | undefined): SessionStore {
  return new SessionStore({ directory: join(dshHomeFrom(io, dshHome), 'sessions'), clock: () => new Date(), warn: (line) => errLine(io, `warning: ${line}`) })
}
