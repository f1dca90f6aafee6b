// Bundles the dsh CLI into apps/cli/dist/dsh.mjs (ESM with a node shebang) and the chunks it
// imports on demand (apps/cli/dist/chunks/): each command's code, and what only some runs need
// (the OpenAI SDK, the terminal UI), is parsed only when a run uses it. Then the page of `dsh web`
// (apps/web-ui: Preact, JSX through esbuild) into apps/cli/dist/web/: index.html, app.js, app.css,
// minified, with no source maps and nothing loaded from elsewhere at run time.
import { build } from 'esbuild'
import { chmodSync, copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const outdir = fileURLToPath(new URL('../apps/cli/dist', import.meta.url))
const outfile = `${outdir}/dsh.mjs`
// Chunk names carry content hashes: remove the previous build so none is left behind.
rmSync(outdir, { recursive: true, force: true })
await build({
  entryPoints: { dsh: fileURLToPath(new URL('../apps/cli/src/main.ts', import.meta.url)) },
  outdir,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
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

const webSource = fileURLToPath(new URL('../apps/web-ui/src/', import.meta.url))
const webOut = `${outdir}/web`
mkdirSync(webOut, { recursive: true })
await build({
  entryPoints: { app: `${webSource}main.tsx` },
  outdir: webOut,
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  minify: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
})
copyFileSync(`${webSource}index.html`, `${webOut}/index.html`)
copyFileSync(`${webSource}app.css`, `${webOut}/app.css`)
const kb = (name) => `${(statSync(`${webOut}/${name}`).size / 1024).toFixed(1)} KB`
console.log(`built ${webOut} (app.js ${kb('app.js')}, app.css ${kb('app.css')})`)
