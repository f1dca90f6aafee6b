/**
 * Where the ripgrep binary is: the static rg that `@vscode/ripgrep` installs from its per-platform
 * optional dependency. Undefined when this platform's package is missing (the import throws).
 */
import { createRequire } from 'node:module'

/** The rg path shipped with `@vscode/ripgrep`, or undefined when this platform has none installed. */
export function bundledRipgrepPath(): string | undefined {
  try {
    const require = createRequire(import.meta.url)
    const arch = process.arch
    const name = process.platform === 'win32' ? 'rg.exe' : 'rg'
    return require.resolve(`@vscode/ripgrep-${process.platform}-${arch}/bin/${name}`)
  } catch {
    // The optional per-platform package is not installed here: the caller falls back to the walker.
    return undefined
  }
}
