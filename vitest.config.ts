// Test runner configuration: every package's test/ folder, run against TypeScript sources.
import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'bench/**/*.test.ts'],
    // A fixed fast-check seed (see the file; DSH_FC_SEED=random explores).
    setupFiles: ['./vitest.setup.ts'],
    // Hang guards, not speed limits: on a 2-core machine shared with other builds, the e2e tests
    // that spawn dsh several times take 20 s and more; a test that hangs still fails, later.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll waits for something to happen; its 1 s default is not enough under load.
    expect: { poll: { timeout: 30_000 } },
    pool: 'forks',
    // Vitest's default is cores − 1 workers, one on a 2-core machine, which leaves a core idle while
    // the e2e tests wait on the processes they spawn; two files at a time take the suite from about
    // 8 to about 5 minutes there. Every test must hold under that load anyway (scripts/flake-hunt.sh
    // runs them beside `stress-ng --cpu 2`).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
})
