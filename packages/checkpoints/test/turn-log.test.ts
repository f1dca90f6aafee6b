// The turn log and the object store on the real filesystem: lines fold into one checkpoint (later
// entries of a path win, totals from the last line); a line cut short by a crash is ignored by the
// reader and cut off by the next writer; a damaged whole line is named with its file and number;
// an object cut short is written again by the next put; an object kept without a flush is flushed
// when a durable record names it. A property test folds random histories of partial lines.
import { readFileSync, truncateSync, writeFileSync, appendFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import * as fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import type { FileChange, TurnCheckpoint } from '../src/checkpoint-types.ts'
import { CheckpointDirectory } from '../src/checkpoint-directory.ts'
import { blobId, ObjectStore } from '../src/object-store.ts'
import { SessionCapture } from '../src/session-capture.ts'
import { TurnLogWriter } from '../src/turn-log.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

const change = (path: string, note: string): FileChange => ({ path, before: { kind: 'symlink', target: note }, by: 'write' })
const line = (files: Record<string, FileChange>, bytesAdded: number): TurnCheckpoint => ({ version: 1, turn: 3, roots: ['/r'], files, bytesAdded })

describe('turn log', () => {
  it('folds its lines: later entries of a path win, totals come from the last line', async () => {
    tree = await tempTree({ 'home/': null })
    const directory = new CheckpointDirectory(tree.path('home'), 's')
    const writer = directory.turnLog(3)
    writer.append(line({ '/r/a': change('/r/a', 'one'), '/r/b': change('/r/b', 'b') }, 10))
    writer.append(line({ '/r/a': change('/r/a', 'two') }, 25), { flush: false })
    writer.close()
    expect(directory.turn(3)).toEqual(line({ '/r/a': change('/r/a', 'two'), '/r/b': change('/r/b', 'b') }, 25))
    expect(directory.turns()).toEqual([3])
  })

  it('ignores a line cut short by a crash, and the next writer cuts it off before appending', async () => {
    tree = await tempTree({ 'home/': null })
    const directory = new CheckpointDirectory(tree.path('home'), 's')
    const writer = directory.turnLog(3)
    writer.append(line({ '/r/a': change('/r/a', 'one') }, 1))
    writer.append(line({ '/r/b': change('/r/b', 'b') }, 2))
    writer.close()
    const file = join(directory.path, 'turns', '3.jsonl')
    truncateSync(file, statSync(file).size - 7)
    expect(directory.turn(3)).toEqual(line({ '/r/a': change('/r/a', 'one') }, 1))
    const next = new TurnLogWriter(file)
    next.append(line({ '/r/c': change('/r/c', 'c') }, 3))
    next.close()
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(3)
    expect(directory.turn(3)).toEqual(line({ '/r/a': change('/r/a', 'one'), '/r/c': change('/r/c', 'c') }, 3))
  })

  it('names the file and the line when a whole line is damaged', async () => {
    tree = await tempTree({ 'home/': null })
    const directory = new CheckpointDirectory(tree.path('home'), 's')
    const writer = directory.turnLog(3)
    writer.append(line({}, 1))
    writer.close()
    const file = join(directory.path, 'turns', '3.jsonl')
    appendFileSync(file, '{"version":1,"turn":4,"roots":[],"files":{},"bytesAdded":0}\n')
    expect(() => directory.turn(3)).toThrow(`checkpoint file ${file} is corrupt (line 2 is not a turn checkpoint)`)
    writeFileSync(file, 'garbage\n')
    expect(() => directory.turn(3)).toThrow(`checkpoint file ${file} is corrupt (line 1 is not JSON)`)
  })

  it('folds any history of partial lines into the last entry of every path', async () => {
    tree = await tempTree({ 'home/': null })
    let round = 0
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.tuple(fc.constantFrom('/r/a', '/r/b', '/r/c', '/r/d'), fc.string({ maxLength: 6 })), { maxLength: 4 }), { minLength: 1, maxLength: 12 }), async (history) => {
        const directory = new CheckpointDirectory(tree.path('home'), `p${round++}`)
        const writer = directory.turnLog(3)
        const expected: Record<string, FileChange> = {}
        for (const [index, entries] of history.entries()) {
          const files = Object.fromEntries(entries.map(([path, note]) => [path, change(path, note)]))
          Object.assign(expected, files)
          writer.append(line(files, index), { flush: index === history.length - 1 })
        }
        writer.close()
        expect(directory.turn(3)).toEqual(line(expected, history.length - 1))
      }),
      { numRuns: 40 },
    )
  })
})

describe('object store', () => {
  it('writes again an object a crash cut short', async () => {
    tree = await tempTree({ 'objects/': null })
    const store = new ObjectStore(tree.path('objects'))
    const bytes = Buffer.from('the content of a file\n')
    const { blob } = store.put(bytes)
    truncateSync(store.fileOf(blob), 5)
    expect(store.check(blob)).toBe('corrupt')
    expect(store.put(bytes)).toEqual({ blob, added: bytes.length - 5 })
    expect(store.get(blob)).toEqual(bytes)
    expect(blobId(readFileSync(store.fileOf(blob)))).toBe(blob)
  })

  it('keeps what a write left without a flush, and the next change of the file records it as its pre-image', async () => {
    tree = await tempTree({ 'repo/a.txt': 'first\n', 'home/': null })
    const capture = new SessionCapture(tree.path('home'), 's', { maxFileBytes: 1 << 20, maxBytes: 1 << 30 })
    const path = tree.path('repo/a.txt')
    const roots = [tree.path('repo')]
    await capture.beforeShell(roots)
    capture.beforeWrite(1, roots, path, 'write')
    writeFileSync(path, 'written by the model\n')
    capture.afterWrite(1, roots, path)
    await capture.beforeShell(roots)
    writeFileSync(path, 'changed by the shell\n')
    await capture.afterShell(2, roots, 'bash')
    capture.close()
    const directory = new CheckpointDirectory(tree.path('home'), 's')
    const second = directory.turn(2)?.files[path]
    expect(second?.before).toMatchObject({ kind: 'file', blob: blobId(Buffer.from('written by the model\n')) })
    expect(second?.before.kind === 'file' ? directory.objects.get(second.before.blob).toString() : '').toBe('written by the model\n')
    expect(directory.turn(1)?.files[path]?.after).toMatchObject({ kind: 'file', blob: blobId(Buffer.from('written by the model\n')) })
  })
})
