/**
 * Which addresses `web_fetch` may connect to: public unicast ones only. Loopback, private
 * (RFC 1918, unique-local), link-local (cloud metadata at 169.254.169.254 included), carrier-grade
 * NAT, multicast, broadcast, documentation, benchmarking, reserved and unspecified ranges are
 * refused, for IPv4, IPv6 and IPv4 inside IPv6 (`::ffff:127.0.0.1`, NAT64 `64:ff9b::/96`, 6to4).
 * The answer names the kind of address, for the model's error text.
 */
import { isIP } from 'node:net'

/** Why an address is not public, or `undefined` when it is. */
export type AddressKind = 'loopback' | 'private' | 'link-local' | 'shared' | 'multicast' | 'reserved' | 'unspecified' | 'documentation'

const v4Ranges: readonly (readonly [string, number, AddressKind])[] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
]

function v4Number(address: string): number {
  return address.split('.').reduce((total, part) => total * 256 + Number(part), 0)
}

function v4Kind(address: string): AddressKind | undefined {
  const value = v4Number(address)
  for (const [base, bits, kind] of v4Ranges) {
    const size = 2 ** (32 - bits)
    const start = v4Number(base)
    if (value >= start && value < start + size) return kind
  }
  return undefined
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted IPv4 part converted). */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '')
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted?.[1] !== undefined) {
    const value = v4Number(dotted[1])
    text = `${text.slice(0, dotted.index)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const fill = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0')
  return [...left, ...fill, ...right].map((group) => Number.parseInt(group, 16))
}

function v6Kind(address: string): AddressKind | undefined {
  const g = v6Groups(address)
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, h1 = 0, h2 = 0] = g
  const embedded = `${h1 >>> 8}.${h1 & 0xff}.${h2 >>> 8}.${h2 & 0xff}`
  if (g.every((group) => group === 0)) return 'unspecified'
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0 && h1 === 0 && h2 === 1) return 'loopback'
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address.
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && (f === 0xffff || f === 0)) return v4Kind(embedded) ?? (f === 0 ? 'reserved' : undefined)
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return v4Kind(embedded)
  // 6to4 (2002:AABB:CCDD::) carries one in its second and third groups.
  if (a === 0x2002) return v4Kind(`${b >>> 8}.${b & 0xff}.${c >>> 8}.${c & 0xff}`)
  if ((a & 0xfe00) === 0xfc00) return 'private'
  if ((a & 0xffc0) === 0xfe80) return 'link-local'
  if ((a & 0xffc0) === 0xfec0) return 'reserved'
  if ((a & 0xff00) === 0xff00) return 'multicast'
  if (a === 0x2001 && b === 0x0db8) return 'documentation'
  if (a === 0x100 && b === 0 && c === 0 && d === 0) return 'reserved'
  return undefined
}

/** Why `address` (an IP literal) is not a public address; `undefined` when it is one. Not an IP: 'reserved'. */
export function addressKind(address: string): AddressKind | undefined {
  const family = isIP(address.replace(/%.*$/, ''))
  if (family === 4) return v4Kind(address)
  if (family === 6) return v6Kind(address)
  return 'reserved'
}
