// Test runner configuration: every package's test/ folder, run against TypeScript sources.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // expect.poll waits for something a real process or browser does; its default of 1 s is too
    // short on a loaded 2-core machine (a page that becomes ready in 1.2 s is not a failure).
    expect: { poll: { timeout: 20_000, interval: 50 } },
  },
})
