#!/usr/bin/env node
// Launcher committed with the sources so npm links `dsh` even before the first build; it loads the
// bundle that `npm run build` writes to ../dist/dsh.mjs.
import { existsSync } from 'node:fs'

const bundle = new URL('../dist/dsh.mjs', import.meta.url)
if (!existsSync(bundle)) {
  process.stderr.write('dsh: the CLI is not built yet: run `npm run build` in the repository root\n')
  process.exit(1)
}
await import(bundle.href)
