// Registry fixtures: a temp tree with a home, a primary root and sibling directories.
import { tempTree, type TempTree } from '@dsh/testkit'
import { RootRegistry } from '../../src/index.ts'

/** A tree with `home/`, `primary/` (a git checkout) and the given extra entries. */
export async function rootsTree(extra: Record<string, string | null> = {}): Promise<TempTree> {
  return tempTree({ 'home/': null, 'primary/.git/': null, 'primary/src/a.ts': 'a\n', 'lib/': null, 'other/': null, ...extra })
}

/** A registry over `tree/home` with a fixed clock and short lock timings. */
export function registryOf(tree: TempTree, options: { readonly timeoutMs?: number } = {}): RootRegistry {
  return new RootRegistry({ dshHome: tree.path('home'), clock: () => new Date('2026-12-01T10:00:00.000Z'), lock: { timeoutMs: options.timeoutMs ?? 5000 } })
}
