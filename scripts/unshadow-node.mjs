// Runs after every install (the root package's postinstall). The devDependency `node` (Node 22,
// only for the MCP conformance suite, which needs it) is linked by npm as node_modules/.bin/node,
// and npm puts node_modules/.bin first on the PATH of every script: `npm test`, vitest and the
// built dsh would then all run on Node 22 instead of the Node that runs npm (dsh supports 20.19+).
// This removes that one link; the conformance test starts Node 22 by its path in node_modules/node.
import { lstatSync, readlinkSync, unlinkSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const link = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url))
let target
try {
  target = lstatSync(link).isSymbolicLink() ? readlinkSync(link) : undefined
} catch {
  // No link (the package is not installed, or the link was removed already): nothing to do.
  target = undefined
}
if (target !== undefined && /(^|[\\/])node[\\/]bin[\\/]node$/.test(target)) unlinkSync(link)
