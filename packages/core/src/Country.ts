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
 * (`"korea"`) means neither and stays unreadable, rather than picking one at random. (`"congo"` is taken alone by
 * the Republic of the Congo at the English names' level, before the display names where both claim it.)
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
  // `EU` is the European Union's, whatever French abbreviates the United States to (`É.-U.`).
  for (const locale of locales.slice(1)) level(regions((country) => displayNames(locale, country).filter((name) => key(name) !== "eu")))
  level(aliases.filter(([, country]) => isSupported(country)))
  displays.clear()
  return table
}

/**
 * Names found in contact lists that no table above holds: the United Kingdom's nations and informal names, and the
 * long forms of ISO 3166's own list (`Bolivia (Plurinational State of)`), which the English tables give only short.
 * Read last, so a name a table holds keeps its meaning.
 */
export const aliases: ReadonlyArray<readonly [string, CountryCode]> = [
  ["England", "GB"],
  ["Scotland", "GB"],
  ["Wales", "GB"],
  ["Northern Ireland", "GB"],
  ["Britain", "GB"],
  ["United Kingdom of Great Britain and Northern Ireland", "GB"],
  ["Holland", "NL"],
  ["Netherlands (Kingdom of the)", "NL"],
  ["America", "US"],
  ["Bolivia (Plurinational State of)", "BO"],
  ["Iran (Islamic Republic of)", "IR"],
  ["Iran, Islamic Republic of", "IR"],
  ["Venezuela (Bolivarian Republic of)", "VE"],
  ["Venezuela, Bolivarian Republic of", "VE"],
  ["Tanzania, United Republic of", "TZ"],
  ["Congo, Democratic Republic of the", "CD"],
  ["Congo, The Democratic Republic of the", "CD"],
  ["Congo (the Democratic Republic of the)", "CD"],
  ["Palestine, State of", "PS"],
  ["Micronesia (Federated States of)", "FM"],
  ["Micronesia, Federated States of", "FM"],
  ["Korea (the Republic of)", "KR"],
  ["Korea (the Democratic People's Republic of)", "KP"],
  ["Moldova (the Republic of)", "MD"],
  ["Taiwan (Province of China)", "TW"],
  ["Virgin Islands (British)", "VG"],
  ["Virgin Islands (U.S.)", "VI"],
  ["Sint Maarten (Dutch part)", "SX"],
  ["Saint Martin (French part)", "MF"],
  // Names the tables lack in the languages a country's people write (Irish, Māori, Welsh, Kazakh, traditional Chinese).
  ["Republic of Ireland", "IE"],
  ["Eire", "IE"],
  ["Aotearoa", "NZ"],
  ["Cymru", "GB"],
  ["Қазақстан", "KZ"],
  ["Российская Федерация", "RU"],
  ["Белоруссия", "BY"],
  ["中國", "CN"],
  ["臺灣", "TW"],
  ["台灣", "TW"],
  ["ประเทศไทย", "TH"],
  // Former and informal English names still in lists.
  ["Burma", "MM"],
  ["Swaziland", "SZ"],
  ["Macedonia", "MK"],
  ["East Timor", "TL"],
  ["KSA", "SA"],
  ["PRC", "CN"],
  ["Bharat", "IN"],
  ["Hong Kong SAR", "HK"],
  ["Macao SAR", "MO"],
  ["DRC", "CD"],
  ["DR Congo", "CD"],
  // Reversed and bracketed forms of other lists (the World Bank's, GOV.UK's), which read part by part as another.
  ["Congo, Dem. Rep.", "CD"],
  ["Congo, DR", "CD"],
  ["Congo, Democratic Republic of", "CD"],
  ["Congo (Democratic Republic)", "CD"],
  ["Congo, Rep.", "CG"],
  ["Virgin Islands (UK)", "VG"],
  ["Virgin Islands, U.K.", "VG"],
  ["Virgin Islands (US)", "VI"],
  ["Virgin Islands, U.S.", "VI"],
  ["Sudan, South", "SS"],
  ["Guinea, Equatorial", "GQ"],
  ["Korea, Rep.", "KR"],
  ["Korea, Dem. People's Rep.", "KP"],
  ["Korea, Democratic People's Republic of", "KP"],
  ["Korea (South)", "KR"],
  ["Korea (North)", "KP"],
  ["Czech Rep.", "CZ"],
  ["Slovak Republic", "SK"],
  ["Dominican Rep.", "DO"],
  ["Lao PDR", "LA"],
  ["Holy See", "VA"],
  ["Vatican", "VA"],
  ["St. Kitts and Nevis", "KN"],
  ["St. Vincent and the Grenadines", "VC"],
  ["St. Vincent", "VC"],
  ["Trinidad", "TT"],
  ["Antigua", "AG"],
  ["Emirates", "AE"],
  ["Saudi", "SA"],
  // Other languages' everyday names of the UK and the US, which the tables give in their long forms only.
  ["Großbritannien", "GB"],
  ["Grande-Bretagne", "GB"],
  ["Groot-Brittannië", "GB"],
  ["Gran Bretaña", "GB"],
  ["Engeland", "GB"],
  ["Vereinigte Staaten von Amerika", "US"],
  ["Estados Unidos de América", "US"],
  ["États-Unis d'Amérique", "US"]
]

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

/** What a spreadsheet writes for no value (`N/A`, `#N/A`, `n.a.`): no country, though its letters are Namibia's code. */
const notAvailable = /^\s*(?:#?n\s*\/\s*a|n\.\s*a\.)\s*$/i

/**
 * Whether a cell says there is no value (`N/A`, `#N/A`, `n.a.`): a blank cell, for a reader with a default. Not `-`,
 * `?` or `unknown`: beside a national number, they read in the default country stored other countries' numbers as its
 * own (an independent review's `(347) 496-3719` beside `-` became +44 3474 963719); such a cell is no country.
 */
export const isNotAvailable = (cell: string): boolean => notAvailable.test(cell)

/** A flag emoji: two regional indicator symbols, the letters of an alpha-2 code (🇬🇧). */
const flagEmoji = /^\s*([\u{1F1E6}-\u{1F1FF}])([\u{1F1E6}-\u{1F1FF}])\s*$/u

/** The letter a regional indicator symbol stands for (🇬 → `g`). */
const indicatorLetter = (symbol: string = ""): string => String.fromCharCode(0x61 + (symbol.codePointAt(0) ?? 0) - 0x1f1e6)

/** A calling code written as dialled (`0044`). */
const dialledCode = /^\s*00([1-9][0-9]{0,2})\s*$/

/** A code or a name, alone: calling codes, alpha-2 codes, then the name table. */
const single = (cell: string, k: string): CountryCode | undefined =>
  // Codes first, as the number rules read them alone (Msisdn's default); the name table only for the rest.
  CountryCodes.isCallingCode(cell, k) ? ofCallingCode(k) : CountryCodes.ofAlpha2(k) ?? names().get(k)

/**
 * A country picker's value: a name or code with its calling code or code beside it (`United Kingdom (+44)`,
 * `+44 United Kingdom`, `GB - United Kingdom`, `Congo - Kinshasa (+243)`): what is left without the calling codes
 * read whole, else its parts split at brackets, bars and spaced dashes, every one naming the same country; each
 * calling code given must be that country's. Not at commas: `Denver, CO` is a city and a state, not Colombia.
 */
const picked = (cell: string): CountryCode | undefined => {
  const codes = Array.from(cell.matchAll(/\+\s*([0-9]{1,3})(?![0-9])/g), (match) => match[1])
  const rest = cell.replace(/\(?\s*\+\s*[0-9]{1,3}(?![0-9])\s*\)?/g, " ")
  const whole = codes.length > 0 ? single(rest, key(rest)) : undefined
  const named = new Set<CountryCode | undefined>()
  if (whole !== undefined) named.add(whole)
  else for (const part of rest.split(/\s*[()|–—]\s*|\s+-\s+/)) if (part.trim() !== "") named.add(single(part, key(part)))
  const [country, ...others] = named
  return country !== undefined && others.length === 0 && codes.every((code) => code === callingCode(country)) ? country : undefined
}

/** The cell read in one of the other ways people write a country: a flag, `0044`, `The Bahamas`, a picker's value. */
const otherwise = (cell: string, k: string): CountryCode | undefined => {
  const flag = flagEmoji.exec(cell)
  if (flag !== null) return CountryCodes.ofAlpha2(indicatorLetter(flag[1]) + indicatorLetter(flag[2]))
  const dialled = dialledCode.exec(cell)?.[1]
  if (dialled !== undefined) return ofCallingCode(dialled)
  // An article before or after the name (`The Philippines`, `Bahamas, The`).
  const bare = k.startsWith("the") ? k.slice(3) : k.endsWith("the") ? k.slice(0, -3) : ""
  return (bare === "" ? undefined : names().get(bare)) ?? picked(cell)
}

/**
 * The country a cell names, or `undefined` when it names none (or more than one). Read, ignoring case, accents,
 * punctuation and spaces: ISO 3166 alpha-2 (`GB`) and alpha-3 (`GBR`) codes, English names and their common short
 * forms (`United Kingdom`, `UK`, `USA`, `UAE`), names in the country's own language (`Deutschland`, `भारत`) and in
 * the {@link locales}, and calling codes (`44`, `+44`: the main country of the code); then a flag (🇬🇧), a calling
 * code as dialled (`0044`), a name with its article (`The Bahamas`) and a country picker's value (`UK (+44)`). Not
 * `N/A`, `#N/A` or `n.a.`, which say there is no value.
 */
export const lookup = (cell: string): CountryCode | undefined => {
  const cached = cache.get(cell)
  if (cached !== undefined) return cached ?? undefined
  const k = key(cell)
  const found = notAvailable.test(cell) ? undefined : single(cell, k) ?? otherwise(cell, k)
  if (cache.size < cacheLimit) cache.set(cell, found ?? null)
  return found
}

/** The calling code of a country (`GB` → `"44"`). */
export const callingCode = (country: CountryCode): string => getCountryCallingCode(country)
