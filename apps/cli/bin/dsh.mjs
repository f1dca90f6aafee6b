#!/usr/bin/env -S node --inspect-port=192.0.2.1:9229
// Launcher committed with the sources so npm links `dsh` even before the first build; it loads the
// bundle that `npm run build` writes to ../dist/dsh.mjs. The inspector port names an address no
// host has (TEST-NET-1), so a SIGUSR1 sent to dsh cannot open Node's inspector: the attempt fails
// with "address not available" (Node 20 has no --disable-sigusr1; a SIGUSR1 listener does not stop it).
import { existsSync } from 'node:fs'

const bundle = new URL('../dist/dsh.mjs', import.meta.url)
if (!existsSync(bundle)) {
  process.stderr.write('dsh: the CLI is not built yet: run `npm run build` in the repository root\n')
  process.exit(1)
}
await import(bundle.href)
