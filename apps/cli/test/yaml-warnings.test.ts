// YAML files dsh reads (the --config file, settings.yaml's hooks) never make the yaml package print
// a warning on stderr: it would print the file's raw text (escape sequences included) over the chat
// screen or a script's stderr. An unknown tag is read as the plain value it tags.
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { loadConfigFile } from '../src/config-file.ts'
import { settingsHooksSection } from '../src/hook-sources.ts'

let tree: TempTree | undefined
afterEach(async () => {
  await tree?.dispose()
  tree = undefined
})

/** The yaml package's warnings emitted while `read` runs (emitWarning fires on a later tick; other warnings of the worker are not this test's). */
async function warningsOf(read: () => unknown): Promise<{ value: unknown; warnings: string[] }> {
  const warnings: string[] = []
  const listen = (warning: Error): void => {
    if (warning.name === 'YAMLWarning') warnings.push(warning.message)
  }
  process.on('warning', listen)
  try {
    const value = read()
    await new Promise((resolve) => setImmediate(resolve))
    return { value, warnings }
  } finally {
    process.off('warning', listen)
  }
}

describe('YAML warnings', () => {
  it('an unknown tag in the config file or settings.yaml prints nothing and reads the value', async () => {
    tree = await tempTree({ 'dsh.yaml': 'model:\n  spec: !weird "deepseek:deepseek-chat\u001b]0;pwned\u0007"\n', 'home/settings.yaml': 'hooks: !weird\n  Stop: []\n' })
    const config = await warningsOf(() => loadConfigFile(tree?.path('dsh.yaml') ?? '', () => undefined))
    expect(config.warnings).toEqual([])
    expect(config.value).toMatchObject({ model: { spec: "deepseek:deepseek-chat\u001b]0;pwned\u0007" } })
    const hooks = await warningsOf(() => settingsHooksSection(tree?.path('home') ?? ''))
    expect(hooks).toEqual({ value: { Stop: [] }, warnings: [] })
  })
})
