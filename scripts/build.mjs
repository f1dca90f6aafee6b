// Bundles the dsh CLI into apps/cli/dist/dsh.mjs (one ESM file with a node shebang).
import { build } from 'esbuild'
import { chmodSync } from 'node:fs'

const outfile = new URL('../apps/cli/dist/dsh.mjs', import.meta.url).pathname
await build({
  entryPoints: [new URL('../apps/cli/src/main.ts', import.meta.url).pathname],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  // Bundled CommonJS dependencies may call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __dshCreateRequire } from 'node:module'; const require = __dshCreateRequire(import.meta.url);" },
})
chmodSync(outfile, 0o755)
console.log(`built ${outfile}`)
