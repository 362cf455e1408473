/**
 * The benchmark's contacts CSV: N seeded rows of GB mobiles in the formats people type, names with
 * quotes, commas and accents, tags, and a few deliberately bad rows, written streamed (flat memory).
 */
import { Msisdn } from "@smsbook/core"
import { Result } from "effect"
import { once } from "node:events"
import * as fs from "node:fs"
import { below, mulberry32, pick, type Random } from "./Prng.ts"

/** Distinct numbers available: 100 prefixes 4474xx (each checked valid) × 10^6 subscriber numbers. */
export const capacity = 100_000_000

/** What is wrong with a deliberately bad row; each is one of the import's reject reasons. */
export const badKinds = ["scientific-notation", "lost-leading-zero", "not-a-number", "empty", "too-short", "invalid"] as const
export type BadKind = (typeof badKinds)[number]

export interface Stats {
  readonly rows: number
  readonly bytes: number
  /** Rows whose number is valid and new in the file. */
  readonly valid: number
  /** Rows repeating an earlier row's number (the import merges them). */
  readonly duplicates: number
  readonly bad: Readonly<Record<BadKind, number>>
}

export interface Options {
  readonly seed?: number
  /** The text between two tags inside the tags cell. */
  readonly tagSeparator?: string
  /** One row in this many is bad (default 500: 0.2 %). */
  readonly badEvery?: number
  /** One row in this many repeats the previous row's number (default 4999). */
  readonly duplicateEvery?: number
}

export const header = ["Mobile", "First Name", "Last Name", "Country", "Tags"] as const

const firstNames = [
  "Olivia", "Amelia", "Isla", "Ava", "Mia", "Ivy", "Lily", "Isabella", "Rosie", "Sophia", "Grace", "Freya", "Zoë",
  "Siobhán", "Chloé", "Noah", "Oliver", "George", "Arthur", "Muhammad", "Leo", "Harry", "Oscar", "Archie", "Henry",
  "Theodore", "Jack", "Łukasz", "José", "Aarav", "Mateusz", "Seán", "Robert \"Bob\"", "Mary-Jane", "Ng", "Ólafur"
] as const
const lastNames = [
  "Smith", "Jones", "Williams", "Taylor", "Brown", "Davies", "Evans", "Wilson", "Thomas", "Johnson", "Roberts",
  "Robinson", "Thompson", "Wright", "Walker", "White", "Edwards", "Hughes", "Green", "Hall", "Lewis", "Harris",
  "O'Brien", "Smith-Jones", "van der Berg", "Lee, Jr", "Nowak", "Kowalski", "Patel", "Khan", "Müller", "Ó Súilleabháin"
] as const

/** A valid subscriber number for index `index` < `capacity`: prefix 4474xx, then 6 digits. */
export const msisdnOf = (index: number): string =>
  `4474${String(Math.floor(index / 1_000_000)).padStart(2, "0")}${String(index % 1_000_000).padStart(6, "0")}`

const gcd = (a: number, b: number): number => b === 0 ? a : gcd(b, a % b)

/**
 * A bijection of [0, n) (`i ↦ (i·a + b) mod n` with gcd(a, n) = 1): every row gets its own number and
 * the file is not in key order, as real exports are not. Products stay below 2^53 for n ≤ 10^7.
 */
const permutation = (n: number): ((i: number) => number) => {
  let a = 387_420_489 % n
  while (a === 0 || gcd(a, n) !== 1) a = (a + 1) % n
  const b = Math.floor(n / 3)
  return (i) => (i * a + b) % n
}

/** The number as a person or a spreadsheet wrote it: mostly bare with the calling code, some `+44`, some national. */
const written = (random: Random, msisdn: string): string => {
  const national = msisdn.slice(2)
  const r = random()
  if (r < 0.7) return msisdn
  if (r < 0.85) return `+44 ${national.slice(0, 4)} ${national.slice(4)}`
  return `0${national.slice(0, 4)} ${national.slice(4)}`
}

const badValue = (kind: BadKind, msisdn: string): string => {
  switch (kind) {
    case "scientific-notation":
      return `${msisdn.slice(0, 1)}.${msisdn.slice(1, 4)}E+11`
    case "lost-leading-zero":
      return msisdn.slice(2)
    case "not-a-number":
      return "n/a"
    case "empty":
      return ""
    case "too-short":
      return `0${msisdn.slice(2, 7)}`
    case "invalid":
      // 07700 900xxx is reserved for drama: the right length, never assigned.
      return `07700 900${msisdn.slice(-3)}`
  }
}

/** A CSV cell: quoted when it holds a comma, a quote or a line break, quotes doubled. */
export const cell = (text: string): string => /[",\r\n]/.test(text) ? `"${text.replaceAll("\"", "\"\"")}"` : text

const chunkSize = 1 << 16

/**
 * Writes `rows` data rows (plus the header) to `path` and counts what it wrote. The same `rows` and
 * seed give the same bytes. Every 997th generated number is checked with `Msisdn.parse` (GB), so a
 * change in the metadata that made the prefixes invalid stops the benchmark instead of skewing it.
 */
export const write = async (path: string, rows: number, options: Options = {}): Promise<Stats> => {
  if (!Number.isSafeInteger(rows) || rows < 1 || rows > 10_000_000) throw new Error(`rows must be 1 to 10,000,000, not ${rows}`)
  const random = mulberry32(options.seed ?? 20261121)
  const separator = options.tagSeparator ?? ";"
  const badEvery = options.badEvery ?? 500
  const duplicateEvery = options.duplicateEvery ?? 4999
  const numberAt = permutation(rows)
  const bad: Record<BadKind, number> = {
    "scientific-notation": 0,
    "lost-leading-zero": 0,
    "not-a-number": 0,
    empty: 0,
    "too-short": 0,
    invalid: 0
  }
  let valid = 0
  let duplicates = 0
  let bytes = 0
  let previous: string | undefined
  const out = fs.createWriteStream(path)
  const closed = once(out, "close")
  let chunk = `${header.join(",")}\n`
  const flush = async () => {
    bytes += Buffer.byteLength(chunk)
    if (!out.write(chunk)) await once(out, "drain")
    chunk = ""
  }
  for (let i = 0; i < rows; i++) {
    const msisdn = msisdnOf(numberAt(i))
    if (i % 997 === 0 && !Result.isSuccess(Msisdn.parse(msisdn, { defaultCountry: "GB" }))) {
      throw new Error(`generated number ${msisdn} is not a valid GB mobile: pick other prefixes`)
    }
    let number: string
    if (i % badEvery === badEvery - 1) {
      const kind = badKinds[Math.floor(i / badEvery) % badKinds.length] ?? "empty"
      bad[kind]++
      number = badValue(kind, msisdn)
    } else if (previous !== undefined && i % duplicateEvery === duplicateEvery - 1) {
      duplicates++
      number = previous
    } else {
      valid++
      number = written(random, msisdn)
      previous = number
    }
    const first = below(random, 20) === 0 ? "" : pick(random, firstNames)
    const last = pick(random, lastNames)
    const tags = ["all"]
    if (below(random, 10) < 3) tags.push("news")
    if (below(random, 20) === 0) tags.push("VIP")
    chunk += `${cell(number)},${cell(first)},${cell(last)},GB,${cell(tags.join(separator))}\n`
    if (chunk.length >= chunkSize) await flush()
  }
  await flush()
  out.end()
  await closed
  return { rows, bytes, valid, duplicates, bad }
}
