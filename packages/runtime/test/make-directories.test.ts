// makeDirectories: one level at a time, with the mode, and a one-line error where a level cannot be made.
import { statSync, symlinkSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, describe, expect, it } from 'vitest'
import { makeDirectories } from '../src/index.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

describe('makeDirectories', () => {
  it('creates every missing level with the mode and accepts an existing directory', async () => {
    tree = await tempTree({ 'home/': null })
    makeDirectories(tree.path('home/a/b/sessions'), { mode: 0o700 })
    expect(statSync(tree.path('home/a/b/sessions')).isDirectory()).toBe(true)
    expect(statSync(tree.path('home/a')).mode & 0o777).toBe(0o700)
    expect(() => makeDirectories(tree?.path('home/a/b/sessions') ?? '')).not.toThrow()
  })

  it('fails at once under /proc, naming the level that cannot be created', () => {
    expect(() => makeDirectories('/proc/dsh-home/sessions')).toThrow(
      expect.objectContaining({ code: 'DIRECTORY_CREATE_FAILED', message: 'cannot create directory /proc/dsh-home (needed for /proc/dsh-home/sessions): /proc does not accept new directories (ENOENT)' }),
    )
  })

  it('names a symbolic link whose target is missing, instead of saying the path exists', async () => {
    tree = await tempTree({ 'home/': null })
    symlinkSync(tree.path('gone'), tree.path('home/sessions'))
    expect(() => makeDirectories(tree?.path('home/sessions/.locks') ?? '')).toThrow(
      expect.objectContaining({
        code: 'DIRECTORY_CREATE_FAILED',
        message: `cannot create directory ${tree.path('home/sessions')} (needed for ${tree.path('home/sessions/.locks')}): it is a symbolic link to ${tree.path('gone')}, which does not exist`,
      }),
    )
  })

  it('names a file that stands where a directory is needed', async () => {
    tree = await tempTree({ 'home/file': 'x' })
    expect(() => makeDirectories(tree?.path('home/file/sessions') ?? '')).toThrow(
      expect.objectContaining({ code: 'DIRECTORY_CREATE_FAILED', message: `cannot create directory ${tree.path('home/file/sessions')}: ${tree.path('home/file')} exists and is not a directory` }),
    )
  })
})
