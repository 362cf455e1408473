/**
 * The benchmark's contacts CSV, shaped like users' exports: N seeded rows of mobiles from fourteen countries in every
 * way people write them, a country column holding codes, names and blanks, ~2 % bad rows and ~1 % repeats, streamed.
 */
import { type CountryCode, getExampleNumber, parsePhoneNumberFromString } from "libphonenumber-js/max"
import metadata from "libphonenumber-js/max/metadata"
import examples from "libphonenumber-js/mobile/examples"
import { once } from "node:events"
import * as fs from "node:fs"
import { below, mulberry32, pick, type Random } from "./Prng.ts"

/** The countries of the file and their share of the rows, in percent (they add up to 100). */
export const countries: ReadonlyArray<readonly [CountryCode, number]> = [
  ["GB", 24], ["US", 14], ["DE", 8], ["FR", 8], ["IN", 8], ["BR", 6], ["KE", 5],
  ["NG", 5], ["ZA", 4], ["MX", 4], ["RU", 4], ["IT", 4], ["AU", 3], ["JP", 3]
]

/** The default country the import is run with (blank country cells mean it). */
export const defaultCountry: CountryCode = "GB"

/** How a valid number is written; `bare` is calling code and national number as digits, as spreadsheets keep them. */
export const forms = ["plus", "00", "national-trunk", "national", "bare", "non-ascii"] as const
export type Form = (typeof forms)[number]
const formWeights: Readonly<Record<Form, number>> = {
  plus: 25, "00": 8, "national-trunk": 27, national: 12, bare: 26, "non-ascii": 2
}

/** What is wrong with a deliberately bad row. */
export const badKinds = [
  "scientific-notation", "decimal", "not-a-number", "empty", "too-short", "too-long", "letter-in-number", "invalid"
] as const
export type BadKind = (typeof badKinds)[number]

export interface Stats {
  readonly rows: number
  readonly bytes: number
  /** Rows whose number is valid and new in the file (libphonenumber reads it as exactly this number). */
  readonly valid: number
  /** Rows repeating an earlier row's number, possibly written another way (the import merges them). */
  readonly duplicates: number
  readonly bad: Readonly<Record<BadKind, number>>
  readonly byCountry: Readonly<Record<string, number>>
  readonly byForm: Readonly<Record<Form, number>>
  readonly countryCell: { readonly code: number; readonly name: number; readonly blank: number }
  /** The numbers of the valid rows (not the repeats), as written: what an import must store, and all it may store. */
  readonly intended: Float64Array
}

export interface Options {
  readonly seed?: number
  /** The text between two tags inside the tags cell. */
  readonly tagSeparator?: string
}

export const header = ["Mobile", "First Name", "Last Name", "Country", "Tags"] as const

const firstNames = [
  "Olivia", "Amelia", "Isla", "Ava", "Mia", "Ivy", "Lily", "Isabella", "Rosie", "Sophia", "Grace", "Freya", "Zoë",
  "Siobhán", "Chloé", "Noah", "Oliver", "George", "Arthur", "Muhammad", "Leo", "Harry", "Oscar", "Archie", "Henry",
  "Theodore", "Jack", "Łukasz", "José", "Aarav", "Mateusz", "Seán", "Robert \"Bob\"", "Mary-Jane", "Ng", "Ólafur",
  "Wanjiru", "Chinedu", "Thandiwe", "Priya", "João", "Yuki", "Дмитрий", "Giulia", "Mateo", "Amara"
] as const
const lastNames = [
  "Smith", "Jones", "Williams", "Taylor", "Brown", "Davies", "Evans", "Wilson", "Thomas", "Johnson", "Roberts",
  "O'Brien", "Smith-Jones", "van der Berg", "Lee, Jr", "Nowak", "Kowalski", "Patel", "Khan", "Müller", "Ó Súilleabháin",
  "Otieno", "Okafor", "Nkosi", "Sharma", "Silva", "Tanaka", "Иванов", "Rossi", "García", "Dubois", "Schmidt"
] as const

// ---------------------------------------------------------------------------------------------
// Numbers: each country's example mobile with its last six digits free, over prefixes checked valid

interface Country {
  readonly code: CountryCode
  readonly callingCode: string
  readonly trunk: string
  /** The country's own international prefix when the metadata states a literal one (`011` in the US, `009` in Nigeria). */
  readonly idd: string | undefined
  /** National-number prefixes whose every 6-digit ending was sampled valid as a mobile. */
  readonly prefixes: ReadonlyArray<string>
  readonly name: string
}

const suffixDigits = 6
const suffixes = 10 ** suffixDigits
const samples = ["000000", "999999", "123456", "505050", "271828"] as const

// The metadata's array layout: [1] international prefix pattern, [5] trunk prefix, [12] preferred international prefix.
const planOf = (code: CountryCode): ReadonlyArray<unknown> => metadata.countries[code] ?? []
const literal = (value: unknown): string | undefined => typeof value === "string" && /^[0-9]+$/.test(value) ? value : undefined
const trunkOf = (code: CountryCode): string => literal(planOf(code)[5]) ?? ""
const iddOf = (code: CountryCode): string | undefined => literal(planOf(code)[12]) ?? literal(planOf(code)[1])

const isMobile = (callingCode: string, national: string): boolean => {
  const number = parsePhoneNumberFromString(`+${callingCode}${national}`, { extract: false })
  const type = number?.getType()
  return number?.isValid() === true && number.nationalNumber === national && (type === "MOBILE" || type === "FIXED_LINE_OR_MOBILE")
}

const names = new Intl.DisplayNames(["en"], { type: "region" })

/** The valid prefixes of a country: the example's head with its 2nd and 3rd digits varied, kept when all samples pass. */
const countryOf = (code: CountryCode): Country => {
  const example = getExampleNumber(code, examples)
  if (example === undefined) throw new Error(`libphonenumber has no example mobile for ${code}`)
  const national = example.nationalNumber
  const head = national.slice(0, national.length - suffixDigits)
  const prefixes = new Set<string>()
  for (let i = 0; i < 100 && head.length >= 3; i++) {
    const candidate = head.slice(0, 1) + String(i).padStart(2, "0") + head.slice(3)
    if (samples.every((tail) => isMobile(example.countryCallingCode, candidate + tail))) prefixes.add(candidate)
  }
  if (samples.every((tail) => isMobile(example.countryCallingCode, head + tail))) prefixes.add(head)
  if (prefixes.size === 0) throw new Error(`no valid mobile prefix found for ${code}`)
  return { code, callingCode: example.countryCallingCode, trunk: trunkOf(code), idd: iddOf(code), prefixes: [...prefixes], name: names.of(code) ?? code }
}

/** `i ↦ (i·a + b) mod n` with gcd(a, n) = 1: a bijection of [0, n), so the file is not in key order. */
const gcd = (a: number, b: number): number => b === 0 ? a : gcd(b, a % b)
const permutation = (n: number): ((i: number) => number) => {
  let a = 387_420_489 % n
  while (a === 0 || gcd(a, n) !== 1) a = (a + 1) % n
  const b = Math.floor(n / 3)
  return (i) => (i * a + b) % n
}

// ---------------------------------------------------------------------------------------------
// Written forms

/** Splits digits into groups of the given sizes (the rest in the last group). */
const grouped = (digits: string, sizes: ReadonlyArray<number>, separator: string): string => {
  const parts: Array<string> = []
  let at = 0
  for (const size of sizes) {
    if (at >= digits.length) break
    parts.push(digits.slice(at, at + size))
    at += size
  }
  if (at < digits.length) parts.push(digits.slice(at))
  return parts.join(separator)
}

/** A national number laid out as people do: groups split by spaces, dashes or dots, the area part sometimes bracketed. */
const laidOut = (random: Random, digits: string): string => {
  const style = below(random, 6)
  switch (style) {
    case 0:
      return digits
    case 1:
      return grouped(digits, [4, 3], " ")
    case 2:
      return grouped(digits, [3, 3], "-")
    case 3:
      return grouped(digits, [3, 3, 2], ".")
    case 4:
      return `(${digits.slice(0, 3)}) ${grouped(digits.slice(3), [3], " ")}`
    default:
      return grouped(digits, [2, 4], " ")
  }
}

const scripts = [0xff10, 0x660, 0x6f0] as const
const inScript = (text: string, zero: number): string =>
  text.replace(/[0-9]/g, (d) => String.fromCharCode(zero + d.charCodeAt(0) - 0x30))

/** `idd` is the international prefix of the country the row is read with (the cell's, or the default's when blank). */
const written = (random: Random, country: Country, national: string, form: Form, idd: string): string => {
  switch (form) {
    case "plus":
      return `+${country.callingCode} ${laidOut(random, national)}`
    case "00":
      return `${idd}${country.callingCode} ${laidOut(random, national)}`
    case "national-trunk":
      return country.trunk === "" ? laidOut(random, national) : `${country.trunk}${laidOut(random, national)}`
    case "national":
      return laidOut(random, national)
    case "bare":
      return country.callingCode + national
    case "non-ascii":
      return inScript(`+${country.callingCode} ${grouped(national, [4], " ")}`, pick(random, scripts))
  }
}

/** The forms that carry the calling code, so a blank or mismatched country cell cannot change the number. */
const international = (form: Form): boolean => form === "plus" || form === "00" || form === "bare" || form === "non-ascii"

const weightedPick = <K extends string>(random: Random, weights: Readonly<Record<K, number>>, keys: readonly [K, ...ReadonlyArray<K>]): K => {
  const last = keys[keys.length - 1] ?? keys[0]
  const total = keys.reduce((sum, key) => sum + weights[key], 0)
  let r = random() * total
  for (const key of keys) {
    r -= weights[key]
    if (r < 0) return key
  }
  return last
}

// ---------------------------------------------------------------------------------------------
// Bad rows

const badValue = (random: Random, kind: BadKind, country: Country, national: string): string => {
  const e164 = country.callingCode + national
  switch (kind) {
    case "scientific-notation":
      return `${e164.slice(0, 1)}.${e164.slice(1, 4)}E+${e164.length - 1}`
    case "decimal":
      return `${e164}.0`
    case "not-a-number":
      return pick(random, ["n/a", "unknown", "-", "none", "TBC"])
    case "empty":
      return ""
    case "too-short":
      return `+${country.callingCode} ${national.slice(0, 3)}`
    case "too-long":
      return `+${country.callingCode} ${national}${national.slice(0, 6)}`
    case "letter-in-number":
      return `+${country.callingCode} ${national.slice(0, 3)}O${national.slice(4)}`
    case "invalid":
      // 07700 900xxx is reserved for drama in the UK: the right length, never assigned.
      return `+44 7700 900${national.slice(-3)}`
  }
}

/** A CSV cell: quoted when it holds a comma, a quote or a line break, quotes doubled. */
export const cell = (text: string): string => /[",\r\n]/.test(text) ? `"${text.replaceAll("\"", "\"\"")}"` : text

/** The country cell: the ISO code (sometimes lower case), the English name, or blank. */
const countryCell = (random: Random, country: Country, form: Form): { readonly text: string; readonly kind: "code" | "name" | "blank" } => {
  const r = random()
  // Dialled from abroad without a literal prefix of the country's own (Brazil's carrier codes): the default's `00`.
  if (form === "00" && country.idd === undefined) return { text: "", kind: "blank" }
  // A national form needs its country named, unless it is the default country's.
  const mayBeBlank = international(form) || country.code === defaultCountry
  if (mayBeBlank && r < 0.25) return { text: "", kind: "blank" }
  if (r < 0.55) return { text: below(random, 10) === 0 ? country.name.toUpperCase() : country.name, kind: "name" }
  return { text: below(random, 8) === 0 ? country.code.toLowerCase() : country.code, kind: "code" }
}

/** The number libphonenumber reads from a written valid number (the check below holds it to the intended one). */
const readBack = (text: string, form: Form, country: Country, cellKind: string): string | undefined => {
  const region = cellKind === "blank" ? defaultCountry : country.code
  const input = form === "bare" ? `+${text}` : text
  const number = parsePhoneNumberFromString(input, { defaultCountry: region, extract: false })
  return number?.isValid() === true ? number.number.slice(1) : undefined
}

const chunkSize = 1 << 16
const duplicateEvery = 97
const badEvery = 50

/**
 * Writes `rows` data rows (plus the header) to `path` and counts what it wrote. The same `rows` and seed give the
 * same bytes. Every 997th valid row is read back with libphonenumber-js (max) and must give the intended number, so a
 * change of metadata or of this generator stops the benchmark instead of skewing it.
 */
export const write = async (path: string, rows: number, options: Options = {}): Promise<Stats> => {
  if (!Number.isSafeInteger(rows) || rows < 1 || rows > 10_000_000) throw new Error(`rows must be 1 to 10,000,000, not ${rows}`)
  const random = mulberry32(options.seed ?? 20261121)
  const separator = options.tagSeparator ?? ";"
  const table = countries.map(([code]) => countryOf(code))
  const first = countryOf(defaultCountry)
  // Percent buckets: the country of a number is its index mod 100, so numbers of one country never collide.
  const bucket: Array<Country> = []
  countries.forEach(([, share], i) => {
    for (let k = 0; k < share; k++) bucket.push(table[i] ?? first)
  })
  const numberAt = permutation(rows)
  const bad: Record<BadKind, number> = {
    "scientific-notation": 0, decimal: 0, "not-a-number": 0, empty: 0, "too-short": 0, "too-long": 0, "letter-in-number": 0, invalid: 0
  }
  const byCountry: Record<string, number> = {}
  const byForm: Record<Form, number> = { plus: 0, "00": 0, "national-trunk": 0, national: 0, bare: 0, "non-ascii": 0 }
  const countryCells = { code: 0, name: 0, blank: 0 }
  const recent: Array<{ readonly country: Country; readonly national: string }> = []
  let valid = 0
  // MSISDNs as numbers: 15 digits are exact in a double, and 8 bytes a number keep 5M rows cheap to hold.
  const intended: Array<number> = []
  let duplicates = 0
  let bytes = 0
  const out = fs.createWriteStream(path)
  const closed = once(out, "close")
  let chunk = `${header.join(",")}\n`
  const flush = async () => {
    bytes += Buffer.byteLength(chunk)
    if (!out.write(chunk)) await once(out, "drain")
    chunk = ""
  }
  for (let i = 0; i < rows; i++) {
    const serial = numberAt(i)
    const country = bucket[serial % 100] ?? first
    const prefixes = country.prefixes
    let number = { country, national: (prefixes[serial % prefixes.length] ?? "") +
      String(Math.floor(serial / prefixes.length) % suffixes).padStart(suffixDigits, "0") }
    let text: string
    let cellText: string
    if (i % badEvery === badEvery - 1) {
      const kind = badKinds[Math.floor(i / badEvery) % badKinds.length] ?? "empty"
      bad[kind]++
      text = badValue(random, kind, country, number.national)
      cellText = country.code
    } else {
      const repeat = i % duplicateEvery === duplicateEvery - 1 && recent.length > 0
      if (repeat) number = recent[below(random, recent.length)] ?? number
      const form = weightedPick(random, formWeights, forms)
      const where = countryCell(random, number.country, form)
      const idd = where.kind === "blank" ? first.idd ?? "00" : number.country.idd ?? "00"
      text = written(random, number.country, number.national, form, idd)
      cellText = where.text
      if (repeat) duplicates++
      else {
        valid++
        intended.push(Number(number.country.callingCode + number.national))
        byCountry[number.country.code] = (byCountry[number.country.code] ?? 0) + 1
        byForm[form]++
        countryCells[where.kind]++
        if (recent.length < 1000) recent.push(number)
        else recent[below(random, 1000)] = number
        if (valid % 997 === 1) {
          const read = readBack(text, form, number.country, where.kind)
          if (read !== number.country.callingCode + number.national) {
            throw new Error(`generated ${JSON.stringify(text)} (${where.text || "blank"}) reads as ${read}, not ${number.country.callingCode}${number.national}`)
          }
        }
      }
    }
    const firstName = below(random, 20) === 0 ? "" : pick(random, firstNames)
    const lastName = pick(random, lastNames)
    const tags = ["all"]
    if (below(random, 10) < 3) tags.push("news")
    if (below(random, 20) === 0) tags.push("VIP")
    chunk += `${cell(text)},${cell(firstName)},${cell(lastName)},${cell(cellText)},${cell(tags.join(separator))}\n`
    if (chunk.length >= chunkSize) await flush()
  }
  await flush()
  out.end()
  await closed
  return { rows, bytes, valid, duplicates, bad, byCountry, byForm, countryCell: countryCells, intended: Float64Array.from(intended) }
}

/** One line describing the data mix, for docs/benchmarks.md. */
export const describe = (stats: Stats): string => {
  const percent = (n: number) => `${((100 * n) / stats.rows).toFixed(1)} %`
  const badRows = Object.values(stats.bad).reduce((a, b) => a + b, 0)
  return `${stats.valid.toLocaleString("en")} distinct valid mobiles of ${countries.length} countries ` +
    `(${Object.entries(stats.byCountry).map(([code, n]) => `${code} ${percent(n)}`).join(", ")}), written ` +
    `${Object.entries(stats.byForm).map(([form, n]) => `${form} ${percent(n)}`).join(", ")} ` +
    "(`+CC`, `00CC`, national with and without the trunk prefix, bare digits with the calling code, full-width/Arabic-Indic/Persian digits; " +
    "spaces, dashes, dots and brackets); country cell " +
    `code ${percent(stats.countryCell.code)}, English name ${percent(stats.countryCell.name)}, blank ${percent(stats.countryCell.blank)} ` +
    `(blank only beside a calling code or a ${defaultCountry} number; the import runs with --default-country ${defaultCountry}); ` +
    `${stats.duplicates.toLocaleString("en")} repeats (${percent(stats.duplicates)}) of a recent row's number, often written another way; ` +
    `${badRows.toLocaleString("en")} bad rows (${percent(badRows)}: ` +
    `${Object.entries(stats.bad).map(([kind, n]) => `${n.toLocaleString("en")} ${kind}`).join(", ")})`
}
