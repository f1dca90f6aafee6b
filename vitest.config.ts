// Test runner configuration: every package's test/ folder, run against TypeScript sources.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'bench/**/*.test.ts'],
    // Hang guards, not speed limits: on a 2-core machine shared with other builds, the e2e tests
    // that spawn dsh several times take 20 s and more; a test that hangs still fails, later.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll waits for something to happen; its 1 s default is not enough under load.
    expect: { poll: { timeout: 30_000 } },
    pool: 'forks',
  },
})
