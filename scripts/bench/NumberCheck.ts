/**
 * Child script: the per-number cost of reading the contacts file's numbers, libphonenumber-js (`parsePhoneNumber` +
 * `isValid`, max metadata) against core's compiled numbering plans (library fallback where they don't know), same numbers.
 * Usage: node scripts/bench/NumberCheck.ts FILE [LIMIT] — prints one JSON document with µs per number for each.
 */
import { parse } from "csv-parse/sync"
import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from "libphonenumber-js/max"
import * as fs from "node:fs"
import * as NumberingPlans from "../../packages/core/src/internal/numberingPlans.ts"
import { countries, defaultCountry } from "./ContactsFile.ts"

const [file, limitText] = process.argv.slice(2)
if (file === undefined) {
  console.error("usage: NumberCheck.ts FILE [LIMIT]")
  process.exit(2)
}
const limit = Number(limitText ?? 200_000)

// The country cell as the bench writes it: a code in any case, an English name, or blank (the default country).
const names = new Intl.DisplayNames(["en"], { type: "region" })
const byName = new Map<string, CountryCode>(countries.map(([code]) => [(names.of(code) ?? code).toUpperCase(), code]))
const regionOf = (text: string): CountryCode => {
  const upper = text.trim().toUpperCase()
  if (upper === "") return defaultCountry
  if (isSupportedCountry(upper)) return upper
  return byName.get(upper) ?? defaultCountry
}

const records: ReadonlyArray<ReadonlyArray<string>> = parse(fs.readFileSync(file, "utf8"), { from_line: 2, to_line: limit + 1, relax_column_count: true })
const texts = records.map((record) => record[0] ?? "")
const regions = records.map((record) => regionOf(record[3] ?? ""))

/** libphonenumber's answer: the E.164 digits of a valid reading, or "" for none. */
const library = (text: string, region: CountryCode): string => {
  const number = parsePhoneNumberFromString(text, { defaultCountry: region, extract: false })
  return number !== undefined && number.isValid() ? number.number.slice(1) : ""
}

let fallbacks = 0
const compiled = (text: string, region: CountryCode): string => {
  const answer = NumberingPlans.read(text, region)
  if (answer === undefined) {
    fallbacks++
    return library(text, region)
  }
  return answer._tag === "Valid" ? answer.e164 : ""
}

const time = (check: (text: string, region: CountryCode) => string): { readonly micros: number; readonly answers: Array<string> } => {
  const answers: Array<string> = new Array(texts.length)
  const started = performance.now()
  for (let i = 0; i < texts.length; i++) answers[i] = check(texts[i] ?? "", regions[i] ?? defaultCountry)
  return { micros: ((performance.now() - started) * 1000) / texts.length, answers }
}

// Alternate the two, three rounds each, and keep each one's best round (the machine is shared).
const rounds: { readonly library: Array<number>; readonly compiled: Array<number> } = { library: [], compiled: [] }
let libraryAnswers: Array<string> = []
let compiledAnswers: Array<string> = []
for (let round = 0; round < 3; round++) {
  const a = time(library)
  rounds.library.push(a.micros)
  libraryAnswers = a.answers
  fallbacks = 0
  const b = time(compiled)
  rounds.compiled.push(b.micros)
  compiledAnswers = b.answers
}
let disagreements = 0
for (let i = 0; i < texts.length; i++) if (libraryAnswers[i] !== compiledAnswers[i]) disagreements++
const best = (xs: ReadonlyArray<number>) => Math.min(...xs)
console.log(JSON.stringify({
  numbers: texts.length,
  valid: libraryAnswers.filter((a) => a !== "").length,
  libraryMicros: best(rounds.library),
  compiledMicros: best(rounds.compiled),
  rounds,
  fallbacks,
  disagreements,
  regionsCompiled: NumberingPlans.compiledRegions()
}))
