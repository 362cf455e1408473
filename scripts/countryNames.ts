/**
 * Compiles `packages/core/src/internal/countryNames.ts` from `i18n-iso-countries`' data (alpha-3 codes and English
 * names), kept to the countries libphonenumber has a plan for, so core ships the data without the package.
 * Usage: node scripts/countryNames.ts — rewrites the file; `Country.test.ts` fails when it is not what this renders.
 */
import codes from "i18n-iso-countries/codes.json" with { type: "json" }
import english from "i18n-iso-countries/langs/en.json" with { type: "json" }
import { getCountries } from "libphonenumber-js/max"
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"

export const target = fileURLToPath(new URL("../packages/core/src/internal/countryNames.ts", import.meta.url))

/** The module's text: deterministic (sorted), so a re-run on the same data changes nothing. */
export const render = (): string => {
  const supported = new Set<string>(getCountries())
  const alpha3 = codes.flatMap(([alpha2, code]) => alpha2 !== undefined && code !== undefined && supported.has(alpha2) ? [[code, alpha2]] : [])
    .sort(([a], [b]) => (a ?? "").localeCompare(b ?? ""))
  const names: Readonly<Record<string, string | ReadonlyArray<string>>> = english.countries
  const englishNames = Object.entries(names).filter(([alpha2]) => supported.has(alpha2))
    .map(([alpha2, name]) => [alpha2, typeof name === "string" ? [name] : [...name]] as const)
    .sort(([a], [b]) => a.localeCompare(b))
  return [
    "/**",
    " * Country data compiled from `i18n-iso-countries` (its alpha-3 codes and English names) by `scripts/countryNames.ts`,",
    " * for the countries libphonenumber has a plan for. Generated: do not edit; re-run the script after an update.",
    " * Over 400 lines: data, one entry a line.",
    " */",
    "",
    "/** ISO 3166 alpha-3 code → alpha-2 code. */",
    `export const alpha3: Readonly<Record<string, string>> = ${JSON.stringify(Object.fromEntries(alpha3), null, 2)}`,
    "",
    "/** Alpha-2 code → English names, the official one first, then common short forms. */",
    `export const english: Readonly<Record<string, ReadonlyArray<string>>> = ${JSON.stringify(Object.fromEntries(englishNames), null, 2)}`,
    ""
  ].join("\n")
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  fs.writeFileSync(target, render())
  console.log(`wrote ${target}`)
}
