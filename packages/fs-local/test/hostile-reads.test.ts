// Hostile nodes as read targets: FIFOs, device links, sockets, huge, growing and unknown-size files.
import { execFileSync } from 'node:child_process'
import { appendFileSync, readdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLocalFileSystem } from '../src/index.ts'
import { openRegularFile } from '../src/open-regular-file.ts'

/** `openRegularFile` (synchronous) as a promise, so a failure is a rejection to match. */
const opening = (path: string) => Promise.resolve().then(() => openRegularFile(path))

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({ 'small.txt': 'hello\n' })
})
afterEach(async () => {
  await tree.dispose()
})

const fs = () => createLocalFileSystem({ writableRoots: [tree.root] })
const openFds = () => readdirSync('/proc/self/fd').length

/** How long a probe of the threadpool may wait before it counts as blocked: generous for a loaded machine. */
const HANG_GUARD_MS = 20_000

/** Bytes this process has read through read(2) and friends so far (`rchar` of /proc/self/io). */
const bytesRead = (): number => Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? Number.NaN)

function within<T>(ms: number, promise: Promise<T>): Promise<T | 'timed out'> {
  return Promise.race([promise, new Promise<'timed out'>((done) => setTimeout(() => done('timed out'), ms))])
}

describe('FIFOs', () => {
  it('rejects a FIFO at once and leaves the threadpool free', async () => {
    const fifo = tree.path('notes.md')
    execFileSync('mkfifo', [fifo])
    // A blocking open of a FIFO without a writer never returns: these settling at all is the proof.
    const reads = await Promise.allSettled(Array.from({ length: 6 }, () => fs().readText(fifo)))
    for (const read of reads) expect(read).toMatchObject({ status: 'rejected', reason: { code: 'FS_SPECIAL_FILE' } })
    expect(await within(HANG_GUARD_MS, stat(tree.root).then(() => 'ok'))).toBe('ok')
  })

  it('opens a FIFO non-blocking and rejects it from fstat of the descriptor', async () => {
    const fifo = tree.path('pipe')
    execFileSync('mkfifo', [fifo])
    const opens = await Promise.allSettled(Array.from({ length: 6 }, () => opening(fifo)))
    for (const open of opens) {
      expect(open).toMatchObject({ status: 'rejected', reason: { code: 'FS_SPECIAL_FILE', path: fifo } })
    }
    expect(await within(HANG_GUARD_MS, stat(tree.root).then(() => 'ok'))).toBe('ok')
  })

  it('streamText rejects a FIFO on the first pull', async () => {
    const fifo = tree.path('pipe')
    execFileSync('mkfifo', [fifo])
    const iterator = fs().streamText(fifo)[Symbol.asyncIterator]()
    await expect(iterator.next()).rejects.toMatchObject({ code: 'FS_SPECIAL_FILE' })
  })
})

describe('devices and sockets', () => {
  it('rejects a link to /dev/zero without reading from it', async () => {
    const link = tree.path('AGENTS.md')
    symlinkSync('/dev/zero', link)
    const before = process.memoryUsage().rss
    await expect(fs().readText(link)).rejects.toMatchObject({ code: 'FS_SPECIAL_FILE' })
    await expect(opening(link)).rejects.toMatchObject({ code: 'FS_SPECIAL_FILE' })
    expect(process.memoryUsage().rss - before).toBeLessThan(32 * 1024 * 1024)
  })

  it('rejects a link to /dev/null', async () => {
    symlinkSync('/dev/null', tree.path('null.md'))
    await expect(fs().readText(tree.path('null.md'))).rejects.toMatchObject({ code: 'FS_SPECIAL_FILE' })
  })

  it('rejects a unix socket, both before and at open', async () => {
    const socketPath = tree.path('sock')
    const server = createServer()
    await new Promise<void>((done) => server.listen(socketPath, done))
    try {
      await expect(fs().readText(socketPath)).rejects.toMatchObject({ code: 'FS_SPECIAL_FILE' })
      await expect(opening(socketPath)).rejects.toMatchObject({ code: 'FS_SPECIAL_FILE' })
    } finally {
      await new Promise((done) => server.close(done))
    }
  })
})

describe('size caps', () => {
  it('rejects a 512 MiB sparse file without reading it', async () => {
    const big = tree.path('big.md')
    writeFileSync(big, '')
    truncateSync(big, 512 * 1024 * 1024)
    const before = bytesRead()
    await expect(fs().readText(big, { maxBytes: 1024 * 1024 })).rejects.toMatchObject({ code: 'FS_TOO_LARGE' })
    expect(bytesRead() - before).toBeLessThan(16 * 1024 * 1024)
  })

  it('lets a stream take a prefix of a huge file, and caps one that reads on', async () => {
    const big = tree.path('big.log')
    writeFileSync(big, 'line\n'.repeat(1000))
    truncateSync(big, 512 * 1024 * 1024)
    const port = fs()
    for await (const chunk of port.streamText(big, { maxBytes: 1024 * 1024 })) {
      expect(chunk.startsWith('line\n')).toBe(true)
      break
    }
    let seen = 0
    const drain = async () => {
      for await (const chunk of port.streamText(big, { maxBytes: 1024 * 1024 })) seen += chunk.length
    }
    await expect(drain()).rejects.toMatchObject({ code: 'FS_TOO_LARGE' })
    expect(seen).toBeLessThanOrEqual(1024 * 1024)
  })

  it('caps at exactly maxBytes: cap-1 and cap pass, cap+1 fails', async () => {
    await tree.write({ a: 'x'.repeat(99), b: 'x'.repeat(100), c: 'x'.repeat(101) })
    expect((await fs().readText(tree.path('a'), { maxBytes: 100 })).text).toHaveLength(99)
    expect((await fs().readText(tree.path('b'), { maxBytes: 100 })).text).toHaveLength(100)
    await expect(fs().readText(tree.path('c'), { maxBytes: 100 })).rejects.toMatchObject({ code: 'FS_TOO_LARGE' })
  })

  it('caps a file that grows while it is being read', async () => {
    const growing = tree.path('growing.log')
    writeFileSync(growing, 'a'.repeat(100_000))
    let seen = 0
    const read = async () => {
      for await (const chunk of fs().streamText(growing, { maxBytes: 300_000 })) {
        if (seen === 0) appendFileSync(growing, 'b'.repeat(4 * 1024 * 1024))
        seen += chunk.length
      }
    }
    await expect(read()).rejects.toMatchObject({ code: 'FS_TOO_LARGE' })
    expect(seen).toBeLessThanOrEqual(300_000)
  })

  it('a small file that grows between its fstat and its read is read in whole chunks, not in pieces of its first size', async () => {
    const growing = tree.path('small-growing.log')
    writeFileSync(growing, 'a'.repeat(10))
    const chunks: string[] = []
    const opened = () => appendFileSync(growing, 'b'.repeat(1024 * 1024))
    for await (const chunk of fs().streamTextFrom?.(growing, { startByte: 0, maxBytes: 2 * 1024 * 1024, onOpened: opened }) ?? []) chunks.push(chunk)
    expect(chunks.join('')).toBe(`${'a'.repeat(10)}${'b'.repeat(1024 * 1024)}`)
    expect(chunks.length).toBeLessThan(40)
  })

  it('a small file that grows after it was read to its size is read as it was at the open', async () => {
    const growing = tree.path('small-grown.log')
    writeFileSync(growing, 'a'.repeat(10))
    const chunks: string[] = []
    for await (const chunk of fs().streamText(growing)) {
      if (chunks.length === 0) appendFileSync(growing, 'b'.repeat(100))
      chunks.push(chunk)
    }
    expect(chunks.join('')).toBe('a'.repeat(10))
  })

  it.runIf(process.platform === 'linux')('caps a file whose size is unknown (procfs reports 0)', async () => {
    const info = await fs().stat('/proc/self/status')
    expect(info?.size).toBe(0)
    await expect(fs().readText('/proc/self/status', { maxBytes: 50 })).rejects.toMatchObject({ code: 'FS_TOO_LARGE' })
    expect((await fs().readText('/proc/self/status')).text).toContain('Pid:')
  })
})

describe('descriptor hygiene', () => {
  it.runIf(process.platform === 'linux')('closes the descriptor on success, failure and early exit', async () => {
    await tree.write({ 'bad.bin': new Uint8Array([0xff, 0xfe, 0x41, 0x00]), 'big.txt': 'z'.repeat(300_000) })
    const port = fs()
    const before = openFds()
    for (let i = 0; i < 10; i += 1) {
      await port.readText(tree.path('small.txt'))
      await expect(port.readText(tree.path('bad.bin'))).rejects.toMatchObject({ code: 'FS_NOT_UTF8' })
      await expect(port.readText(tree.path('big.txt'), { maxBytes: 10 })).rejects.toMatchObject({ code: 'FS_TOO_LARGE' })
      for await (const chunk of port.streamText(tree.path('big.txt'))) {
        expect(chunk.length).toBeGreaterThan(0)
        break
      }
    }
    expect(openFds()).toBeLessThanOrEqual(before)
  })
})
