/**
 * A set of MSISDNs kept as numbers in open-addressing tables: 13 to 22 bytes per number (a `Set<string>` takes
 * about 60), so an import can tell a number it has already seen: since its last merge with a set-based store, in the
 * whole file otherwise (5M numbers: 64 MB).
 */

/** An MSISDN has at most 15 digits: every one is an integer a double holds exactly (< 2^53). */
const toKey = (msisdn: string): number => Number(msisdn)

const hash = (key: number): number => {
  const low = key >>> 0
  const high = Math.floor(key / 4294967296) >>> 0
  let h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

export interface MsisdnSet {
  /** Adds the number; `true` when it was already there. */
  readonly addSeen: (msisdn: string) => boolean
  readonly size: () => number
  /** The numbers of the set as numbers, ascending: 8 bytes each, where their texts would take several times that. */
  readonly sorted: () => Float64Array
  /** Empties the set, keeping its tables for the numbers that come next. */
  readonly clear: () => void
}

/** Tables per set: each grows on its own, so a growth copies 1/64 of the set, not all of it at once. */
const shardBits = 6

interface Shard {
  slots: Float64Array
  count: number
}

/** Inserts into a table with room to spare; `true` when the key was there. 0 marks an empty slot. */
const insert = (slots: Float64Array, key: number, h: number): boolean => {
  const mask = slots.length - 1
  let i = h & mask
  for (;;) {
    const slot = slots[i] ?? 0
    if (slot === 0) {
      slots[i] = key
      return false
    }
    if (slot === key) return true
    i = (i + 1) & mask
  }
}

/**
 * An empty set. Numbers must be MSISDNs (digits, no leading 0), so 0 can mark an empty slot. Each table doubles at
 * three-quarters full. `initialCapacity` (per table, a power of two) is for tests of growth.
 */
export const make = (initialCapacity = 1 << 10): MsisdnSet => {
  const shards: Array<Shard> = Array.from({ length: 1 << shardBits }, () => ({
    slots: new Float64Array(initialCapacity),
    count: 0
  }))
  let total = 0
  return {
    addSeen: (msisdn) => {
      const key = toKey(msisdn)
      const h = hash(key)
      const shard = shards[h >>> (32 - shardBits)]
      if (shard === undefined) return false
      if (insert(shard.slots, key, h)) return true
      total++
      if (++shard.count * 4 > shard.slots.length * 3) {
        const grown = new Float64Array(shard.slots.length * 2)
        for (const old of shard.slots) if (old !== 0) insert(grown, old, hash(old))
        shard.slots = grown
      }
      return false
    },
    size: () => total,
    sorted: () => {
      // A key is the number's digits as a float: exact up to 2^53, beyond any MSISDN's 15 digits, and no leading 0.
      const keys = new Float64Array(total)
      let at = 0
      for (const shard of shards) for (const key of shard.slots) if (key !== 0) keys[at++] = key
      return keys.sort()
    },
    clear: () => {
      for (const shard of shards) {
        shard.slots.fill(0)
        shard.count = 0
      }
      total = 0
    }
  }
}

/**
 * The set's numbers as texts, ascending, `size` at a time: what one store statement takes. In key order, each
 * statement touches the book's pages once, where the set's hash order touched them all over (numbers of one length
 * sort as the book's text keys do).
 */
export function* sortedChunks(set: MsisdnSet, size: number): Generator<Array<string>> {
  const sorted = set.sorted()
  for (let at = 0; at < sorted.length; at += size) yield Array.from(sorted.subarray(at, at + size), String)
}
