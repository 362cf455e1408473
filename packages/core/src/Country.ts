/**
 * Country: what people write in a country column (ISO codes, names in English or the country's own language,
 * calling codes) read as the ISO 3166 alpha-2 code of a country libphonenumber has a numbering plan for.
 */
import { type CountryCode, getCountries, getCountryCallingCode } from "libphonenumber-js/max"
import * as CountryCodes from "./internal/countryCodes.ts"
import * as CountryNames from "./internal/countryNames.ts"

/**
 * A cell reduced to what tells countries apart: accents removed, lower case, letters and digits only, so
 * `"Côte d'Ivoire"`, `"COTE D IVOIRE"` and `"cote-divoire"` are one key, and `"+44"` is `"44"`.
 */
export const key: (text: string) => string = CountryCodes.key

/**
 * Locales whose names are read besides English and each country's own language: the languages a contact list
 * of an international company is most often written in. More locales only add collisions.
 */
export const locales = ["en", "fr", "de", "es", "pt", "it", "nl", "ru", "ar", "zh", "ja"] as const

/**
 * Keys in priority order: each level only adds keys no earlier level took; a key two countries claim at one level
 * (`"congo"`, `"korea"`) means neither and stays unreadable, rather than picking one at random.
 */
const build = (): ReadonlyMap<string, CountryCode> => {
  const countries = getCountries()
  const supported: ReadonlySet<string> = new Set(countries)
  const table = new Map<string, CountryCode>()
  const level = (entries: Iterable<readonly [string, CountryCode]>): void => {
    const claims = new Map<string, CountryCode | null>()
    for (const [name, country] of entries) {
      const k = key(name)
      if (k === "" || table.has(k)) continue
      const claimed = claims.get(k)
      claims.set(k, claimed === undefined || claimed === country ? country : null)
    }
    for (const [k, country] of claims) if (country !== null) table.set(k, country)
  }
  const isSupported = (code: string): code is CountryCode => supported.has(code)
  const regions = (function*(names: (country: CountryCode) => Iterable<string>) {
    for (const country of countries) for (const name of names(country)) yield [name, country] as const
  })

  level(regions((country) => [country]))
  level(Object.entries(CountryNames.alpha3).flatMap(([alpha3, alpha2]) => isSupported(alpha2) ? [[alpha3, alpha2] as const] : []))
  level(regions((country) => CountryNames.english[country] ?? []))
  level(regions((country) => displayNames("en", country)))
  level(regions((country) => displayNames(new Intl.Locale("und-" + country).maximize().language, country)))
  for (const locale of locales.slice(1)) level(regions((country) => displayNames(locale, country)))
  displays.clear()
  return table
}

const styles = ["long", "short", "narrow"] as const

/** One `Intl.DisplayNames` per locale and style: constructing one costs far more than a lookup. */
const displays = new Map<string, ReadonlyArray<Intl.DisplayNames>>()

const displayNames = (locale: string, country: CountryCode): ReadonlyArray<string> => {
  let forLocale = displays.get(locale)
  if (forLocale === undefined) {
    forLocale = styles.map((style) => new Intl.DisplayNames([locale], { type: "region", style, fallback: "none" }))
    displays.set(locale, forLocale)
  }
  const names: Array<string> = []
  for (const display of forLocale) {
    const name = display.of(country)
    if (name !== undefined && name !== country) names.push(name)
  }
  return names
}

let table: ReadonlyMap<string, CountryCode> | undefined

/** The name table, built on first use (≈ 10k `Intl.DisplayNames` lookups, once per process). */
const names = (): ReadonlyMap<string, CountryCode> => table ??= build()

/** The main country of a calling code (`"44"` → GB, `"1"` → US, `"7"` → RU); non-geographic codes have none. */
export const ofCallingCode: (code: string) => CountryCode | undefined = CountryCodes.ofCallingCode

/** Cells already read, so a file's column costs one lookup per distinct spelling; bounded against hostile files. */
const cache = new Map<string, CountryCode | null>()
const cacheLimit = 4096

/**
 * The country a cell names, or `undefined` when it names none (or more than one). Read, ignoring case, accents,
 * punctuation and spaces: ISO 3166 alpha-2 (`GB`) and alpha-3 (`GBR`) codes, English names and their common short
 * forms (`United Kingdom`, `UK`, `USA`, `UAE`), names in the country's own language (`Deutschland`, `भारत`) and in
 * the {@link locales}, and calling codes (`44`, `+44`: the main country of the code).
 */
export const lookup = (cell: string): CountryCode | undefined => {
  const cached = cache.get(cell)
  if (cached !== undefined) return cached ?? undefined
  const k = key(cell)
  // Codes first, as the number rules read them alone (Msisdn's default); the name table only for the rest.
  const found = CountryCodes.isCallingCode(cell, k) ? ofCallingCode(k) : CountryCodes.ofAlpha2(k) ?? names().get(k)
  if (cache.size < cacheLimit) cache.set(cell, found ?? null)
  return found
}

/** The calling code of a country (`GB` → `"44"`). */
export const callingCode = (country: CountryCode): string => getCountryCallingCode(country)
