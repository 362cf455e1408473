/**
 * MSISDN: a phone number in international form, digits only (country calling code + national number, E.164).
 * Parsing turns what people and spreadsheets write into one, or names why it cannot (libphonenumber-js "max").
 * Over 400 lines on purpose: the reading policy is one decision over both readings, trunk prefixes and notes; split, its order would be hidden.
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import parsePhoneNumber, {
  type CountryCode,
  getCountryCallingCode,
  Metadata,
  type PhoneNumber,
  parsePhoneNumberWithError
} from "libphonenumber-js/max"
import metadata from "libphonenumber-js/max/metadata"
import { InvalidField, InvalidMsisdn, type MsisdnProblem } from "./Errors.ts"
import * as CountryCodes from "./internal/countryCodes.ts"
import * as NumberingPlans from "./internal/numberingPlans.ts"
import * as PlanSwitch from "./internal/planSwitch.ts"
import * as Written from "./internal/written.ts"
import * as Wire from "./Wire.ts"

/**
 * Fewest digits an MSISDN can have: the shortest calling code plus the shortest possible national number in the
 * "max" metadata is 6 (Austria, +43 and 4 digits); a test holds this against the metadata.
 */
export const minLength = 6

/** Most digits an MSISDN can have (ITU-T E.164). */
export const maxLength = 15

const pattern = /^[1-9][0-9]{5,14}$/

/**
 * An MSISDN: 6 to 15 ASCII digits, not starting with 0 (no calling code does). The schema checks the shape only,
 * not validity against the numbering plans: a stored number must stay readable when the metadata changes, so
 * validity is decided once, by {@link parse}, where the number comes in.
 */
export const Msisdn = /* @__PURE__ */ Schema.toStandardSchemaV1(
  /* @__PURE__ */ Schema.String.check(
    /* @__PURE__ */ Schema.isPattern(pattern, { expected: "an MSISDN: 6 to 15 digits, calling code first, no leading 0" })
  ).pipe(/* @__PURE__ */ Schema.brand("Msisdn"))
)
export type Msisdn = typeof Msisdn.Type

/** Whether a text has the shape of an MSISDN (the schema's check, as a type guard for code that built the digits). */
export const isMsisdn = (text: string): text is Msisdn => pattern.test(text)

/**
 * Which reading of the input produced the number, so an import can count them:
 * - `international`: written with `+`, `00` or the country's own international prefix (`011` from the US), or bare
 *   digits that are only valid as an international number;
 * - `national`: national digits read with the row's country or the default one (`07400 123456`, `212 555 0123`);
 * - `trunk-prefix-dropped`: a trunk prefix written after the calling code was removed (`+44 (0)7400 123456`,
 *   `1 1 201 555 0123`, `+7 8 912…`, `36 06 20…`);
 * - `calling-code-digits`: bare digits starting with the country's calling code, read as international
 *   (`447400123456` with GB).
 */
export type Rule = "international" | "national" | "trunk-prefix-dropped" | "calling-code-digits"

/**
 * Repairs and doubts a reading went through, each counted by an import:
 * - `trunk-prefix-added`: a national number written without its trunk prefix (`7400 123456` with GB); the digits
 *   still name one number, but a spreadsheet may have dropped the `0`;
 * - `ambiguous`: the international and the national reading are both valid and name different numbers; rule 5 of
 *   {@link normalize} chose (the national one through a written trunk prefix or without the calling code, else the one
 *   that can be a mobile, else the international one);
 * - `country-ignored`: the row's country cell could not be read or named another calling code than the number's own;
 * - `extension-dropped`: an extension (`ext. 123`) was removed: an SMS cannot dial one;
 * - `letters-converted`: vanity letters were read on the keypad (`1-800-FLOWERS`).
 */
export const notes = ["trunk-prefix-added", "ambiguous", "country-ignored", "extension-dropped", "letters-converted"] as const
export type Note = (typeof notes)[number]

/** A parsed number: the MSISDN, its two parts as the interface names them, the reading applied and its notes. */
export interface Normalized {
  readonly msisdn: Msisdn
  readonly country_code: string
  readonly phone_number: string
  readonly rule: Rule
  readonly notes: ReadonlyArray<Note>
}

/**
 * How a country cell is read: the country it names, or `undefined`. {@link codes} by default; `Country.lookup` (which
 * reads the same codes the same way, and names and alpha-3 codes besides) for free-text columns.
 */
export type CountryReader = (cell: string) => CountryCode | undefined

/**
 * The country codes the rules read themselves: an ISO 3166 alpha-2 code in any case (`"GB"`, `"gb"`) or a calling
 * code (`"44"`, `"+44"`: its main country). Names are read by `Country.lookup`, kept out of the rules so a page that
 * only parses numbers does not carry every country's names.
 */
export const codes: CountryReader = CountryCodes.lookup

export interface Options {
  /**
   * The country of national numbers when the row has none, read by {@link readCountry} (`"GB"`, `"44"`, `"+44"`;
   * with `Country.lookup`, also `"GBR"`, `"United Kingdom"`).
   */
  readonly defaultCountry?: string | undefined
  /**
   * The row's own country cell, read like `defaultCountry`. It replaces the default for national numbers; one that
   * cannot be read refuses a national number (`bad-country`) but never a number carrying its calling code.
   */
  readonly country?: string | undefined
  /**
   * Reads `country` and `defaultCountry`: {@link codes} when absent. Every entry point that takes what people write
   * in a country column (the import's rows, `--default-country`) passes `Country.lookup`, so all read cells alike.
   */
  readonly readCountry?: CountryReader | undefined
}

// ---------------------------------------------------------------------------------------------
// Calling codes and countries

const callingCodes: ReadonlySet<string> = new Set([
  ...Object.keys(metadata.country_calling_codes),
  ...Object.keys(metadata.nonGeographic)
])

/**
 * Splits an MSISDN into `country_code` and `phone_number`; `country_code + phone_number === m` always.
 * Calling codes are prefix-free (ITU-T E.164), so the first 1–3 digits that are a calling code in the metadata are
 * the only possible one. A number with a code the metadata does not know (stored before a code was withdrawn) is split
 * after 3 digits: every code ITU has left spare is 3 digits long.
 */
export const split = (m: Msisdn): { readonly country_code: string; readonly phone_number: string } => {
  const code = codeOf(m)
  return code === undefined
    ? { country_code: m.slice(0, 3), phone_number: m.slice(3) }
    : { country_code: code, phone_number: m.slice(code.length) }
}

/** The calling code digits start with, if any. */
const codeOf = (digits: string): string | undefined => {
  for (let length = 1; length <= 3; length++) {
    const code = digits.slice(0, length)
    if (callingCodes.has(code)) return code
  }
  return undefined
}

const callingCodePattern = /^\+?([1-9][0-9]{0,2})$/

/**
 * The calling code of a country cell: a calling code given directly (`"44"`, `"+44"`, `"800"`, kept only if the
 * metadata knows it), or the code of the country `readCountry` reads in it ({@link codes} by default: `"gb"`;
 * `Country.lookup` also reads `"GBR"`, `"United Kingdom"`, `"UK"`).
 */
export const callingCode = (country: string, readCountry: CountryReader = codes): Result.Result<string, InvalidField> => {
  const text = country.trim()
  const direct = callingCodePattern.exec(text)
  if (direct !== null) {
    const code = direct[1] ?? ""
    return callingCodes.has(code)
      ? Result.succeed(code)
      : Result.fail(new InvalidField({ field: "country", value: country, reason: "no country has this calling code" }))
  }
  const found = text === "" ? undefined : readCountry(text)
  return found !== undefined
    ? Result.succeed(getCountryCallingCode(found))
    : Result.fail(
      new InvalidField({
        field: "country",
        value: country,
        reason: "not an ISO 3166 code (GB, GBR), country name (United Kingdom) or calling code (44)"
      })
    )
}

/**
 * The main country of a calling code (`"44"` → `"GB"`, `"1"` → `"US"`, `"7"` → `"RU"`), the one national numbers
 * are read against. The numbers of every country sharing the code are still recognised (`"1"` reads Canadian
 * numbers too). Non-geographic codes (`800`, `882`…) have no country and are refused.
 */
export const regionFor = (code: string): Result.Result<CountryCode, InvalidField> => {
  const digits = code.trim().replace(/^\+/, "")
  const main = callingCodes.has(digits) ? CountryCodes.ofCallingCode(digits) : undefined
  if (main !== undefined) return Result.succeed(main)
  return Result.fail(
    new InvalidField({
      field: "country",
      value: code,
      reason: callingCodes.has(digits)
        ? "a non-geographic calling code has no country"
        : "no country has this calling code"
    })
  )
}

/** What the readings need of a country, from the metadata, built once per country. */
interface Region {
  readonly country: CountryCode
  readonly callingCode: string
  /** The national (trunk) prefix: `0`, NANP `1`, RU/KZ `8`, HU `06`; none in Italy, Spain… */
  readonly trunk: string | undefined
  /** The country's international prefix (`00`, `011`, `810`…), anchored. */
  readonly idd: RegExp
  readonly parseOptions: { readonly extract: false; readonly defaultCountry: CountryCode }
}

const plans = new Metadata()

/** The national prefix in the minified "max" metadata: the 6th entry of a country's plan. */
const trunkOf = (country: CountryCode): string | undefined => {
  const plan: ReadonlyArray<unknown> | undefined = metadata.countries[country]
  const trunk = plan?.[5]
  return typeof trunk === "string" && /^[0-9]+$/.test(trunk) ? trunk : undefined
}

const regions = new Map<CountryCode, Region>()

const regionOf = (country: CountryCode): Region => {
  const cached = regions.get(country)
  if (cached !== undefined) return cached
  plans.selectNumberingPlan(country)
  const region: Region = {
    country,
    callingCode: getCountryCallingCode(country),
    trunk: trunkOf(country),
    idd: new RegExp(`^(?:${plans.numberingPlan?.IDDPrefix() ?? "00"})`),
    parseOptions: { extract: false, defaultCountry: country }
  }
  regions.set(country, region)
  return region
}

// ---------------------------------------------------------------------------------------------
// Parses: the compiled plans where they answer, libphonenumber-js where they do not

/** What the readings use of a parse of a text: libphonenumber's answer, however it was found. */
interface Parse {
  readonly valid: boolean
  /** `+` and the E.164 digits, when the text parsed (valid or not). */
  readonly number: string | undefined
  readonly countryCallingCode: string
  readonly nationalNumber: string
  /** The region the compiled plans assigned (for the national format); `null`: the parse is the library's. */
  readonly region: string | undefined | null
  /** libphonenumber's own parse, for what only it answers (the national format, why a number is not valid). */
  readonly library: () => PhoneNumber | undefined
}

const internationalOptions: { readonly extract: false } = { extract: false }

type ParseOptions = { readonly extract: false; readonly defaultCountry?: CountryCode }

const fromLibrary = (number: PhoneNumber | undefined): Parse => ({
  valid: number !== undefined && number.isValid(),
  number: number?.number,
  countryCallingCode: number?.countryCallingCode ?? "",
  nationalNumber: number?.nationalNumber ?? "",
  region: null,
  library: () => number
})

/**
 * `parsePhoneNumber(text, options)` then `isValid()` of libphonenumber-js/max, answered by the numbering plans
 * compiled from its metadata when they know (digits and separators: the common case, ~15× faster), by the library
 * itself otherwise. The two agree on everything the plans answer (a differential property test holds it).
 */
const parseText = (text: string, options: ParseOptions): Parse => {
  const answer = PlanSwitch.settings.compiled ? NumberingPlans.read(text, options.defaultCountry) : undefined
  if (answer === undefined) return fromLibrary(parsePhoneNumber(text, options))
  let parsed: PhoneNumber | undefined | null = null
  const library = () => {
    if (parsed === null) parsed = parsePhoneNumber(text, options)
    return parsed
  }
  // A valid answer has both parts (its E.164 is the one after the other); an invalid one those it got to.
  return {
    valid: answer._tag === "Valid",
    number: answer.callingCode === undefined ? undefined : "+" + answer.callingCode + (answer.nationalNumber ?? ""),
    countryCallingCode: answer.callingCode ?? "",
    nationalNumber: answer.nationalNumber ?? "",
    region: answer.region,
    library
  }
}

// ---------------------------------------------------------------------------------------------
// Readings

type Reading = Normalized | MsisdnProblem

const isNumber = (reading: Reading): reading is Normalized => typeof reading !== "string"

/** Why libphonenumber parses no number from the text: the reason its parse throws (what `validatePhoneNumberLength` says). */
const unparsed = (text: string, options: ParseOptions): MsisdnProblem => {
  let reason = ""
  try {
    parsePhoneNumberWithError(text, options)
  } catch (error) {
    reason = error instanceof Error ? error.message : ""
  }
  switch (reason) {
    case "INVALID_COUNTRY":
      return "unknown-country"
    case "TOO_SHORT":
    case "NOT_A_NUMBER":
      return "too-short"
    case "TOO_LONG":
      return "too-long"
    default:
      return "invalid"
  }
}

/**
 * Why a parsed number is not valid, by the possible lengths of its country (of its calling code's plan when the number
 * fits no country): what `validatePhoneNumberLength` answers, without parsing the text a second time (that costs
 * ~70 µs for an invalid GB number).
 */
const problemOf = (parsed: Parse, text: string, options: ParseOptions): MsisdnProblem => {
  const number = parsed.library()
  if (number === undefined) return unparsed(text, options)
  if (number.isPossible()) return "invalid"
  // A calling code selects its plan too (non-geographic ones included): the library's own documentation of the method;
  // its declaration names countries only.
  plans.selectNumberingPlan(number.country ?? number.countryCallingCode as CountryCode)
  const lengths = plans.numberingPlan?.possibleLengths() ?? []
  const length = number.nationalNumber.length
  const shortest = lengths[0]
  const longest = lengths[lengths.length - 1]
  return shortest !== undefined && length < shortest
    ? "too-short"
    : longest !== undefined && length > longest
    ? "too-long"
    : "invalid"
}

const none: ReadonlyArray<Note> = []
const trunkAdded: ReadonlyArray<Note> = ["trunk-prefix-added"]

const accept = (number: Parse, rule: Rule, notes: ReadonlyArray<Note> = none): Reading => {
  const msisdn = (number.number ?? "").slice(1)
  if (!isMsisdn(msisdn)) return msisdn.length > maxLength ? "too-long" : "invalid"
  return { msisdn, country_code: number.countryCallingCode, phone_number: number.nationalNumber, rule, notes }
}

/**
 * Digits that start with a calling code, kept where libphonenumber reads them as a valid number: as written, or with
 * the trunk prefix it strips after the code (`44 0…`, `1 1…`, `7 8…`, `36 06…`, `375 0…`: the patterns of its metadata,
 * not only the literal prefix; repairing the literal prefix alone refused `+375 (0) 29 123 45 67`). `explain`: false
 * when the caller only needs a number, so a refusal need not say which (it is then `invalid`, whatever the reason).
 */
const readInternational = (digits: string, rule: Rule, explain = true): Reading => {
  if (digits === "") return "too-short"
  if (digits.charCodeAt(0) === 48) return "unknown-country"
  const text = "+" + digits
  const number = parseText(text, internationalOptions)
  // Valid as libphonenumber reads it: as written, or with the trunk prefix it strips after the code (`+375 (0) 29…`).
  if (number.valid) return accept(number, number.number === text ? rule : "trunk-prefix-dropped")
  return explain ? problemOf(number, text, internationalOptions) : "invalid"
}

/** Whether the country writes this number nationally with its trunk prefix (`07400 123456`, `8 912 …`). */
const writesTrunk = (parsed: Parse, trunk: string): boolean => {
  let national: string
  if (parsed.region !== null) {
    national = NumberingPlans.nationalFormatDigits(parsed.region, parsed.countryCallingCode, parsed.nationalNumber)
  } else {
    const number = parsed.library()
    if (number === undefined) return false
    national = number.formatNational().replace(/[^0-9]/g, "")
  }
  return national !== parsed.nationalNumber && national.startsWith(trunk)
}

/**
 * Digits read as a national number of the region. A trunk prefix the digits lack is added when that makes them a
 * valid number of the region and is noted; a leading `0` that is part of the number itself (Italian fixed lines)
 * is not a trunk prefix, so its absence is `lost-leading-zero`. `explain` as in {@link readInternational}.
 */
const readNational = (digits: string, region: Region, explain = true): Reading => {
  const options = region.parseOptions
  const number = parseText(digits, options)
  const { trunk } = region
  if (number.valid) {
    // libphonenumber removed the region's international prefix: the digits carry their own calling code.
    if (number.countryCallingCode !== region.callingCode) return accept(number, "international")
    const added = trunk !== undefined && number.nationalNumber === digits && writesTrunk(number, trunk)
    return accept(number, "national", added ? trunkAdded : none)
  }
  if (trunk !== undefined && !digits.startsWith(trunk)) {
    const withTrunk = parseText(trunk + digits, options)
    if (withTrunk.valid && withTrunk.countryCallingCode === region.callingCode && withTrunk.nationalNumber === digits) {
      return accept(withTrunk, "national", trunkAdded)
    }
  }
  if (!explain) return "invalid"
  if (trunk !== "0" && digits.charCodeAt(0) !== 48) {
    const withZero = parseText("0" + digits, options)
    if (withZero.valid && withZero.countryCallingCode === region.callingCode) return "lost-leading-zero"
  }
  return problemOf(number, digits, options)
}

/**
 * Whether a valid MSISDN can be a mobile: its type in the compiled plans is `MOBILE`, or `FIXED_LINE_OR_MOBILE` where
 * the plan cannot tell (non-geographic codes, which the plans leave to the library, are not). Asked of the plans with
 * or without `PlanSwitch`, so a reading is the same either way.
 */
const mayBeMobile = (msisdn: string): boolean => {
  const answer = NumberingPlans.read("+" + msisdn)
  return answer?._tag === "Valid" && (answer.type === "MOBILE" || answer.type === "FIXED_LINE_OR_MOBILE")
}

const withNotes = (reading: Normalized, added: ReadonlyArray<Note>): Normalized =>
  added.length === 0 ? reading : { ...reading, notes: [...reading.notes, ...added] }

/**
 * Reads a phone number as people and spreadsheets write it, and says which reading applied and what it repaired.
 * Never throws. The policy (docs/decisions.md, "Phone numbers"): when libphonenumber ("max" metadata) reads
 * the written number as one valid number, that number is kept; when it reads none, the row is refused with a reason.
 *
 * 1. Characters: any Unicode decimal digit; separators (spaces, `.`, `-`, `/`, brackets, full-width forms); a
 *    `tel:` prefix; a spreadsheet's text forms (`="07400 123456"`, `'07400 123456`); an extension is dropped
 *    (`extension-dropped`); a word set apart after eight digits or more is `not-a-number` (`0664 123456 home`: read on
 *    the keypad, it made another number); three or more vanity letters after three digits are read on the keypad
 *    (`1-800-FLOWERS`), one or two letters are `letter-in-number`.
 * 2. The country: the row's country cell if it has one, else the default country, read by `options.readCountry`
 *    (ISO alpha-2 code or calling code; with `Country.lookup`, also alpha-3 codes and names).
 * 3. `+` → international only. A trunk prefix after the calling code is dropped (`trunk-prefix-dropped`).
 * 4. The country's own international prefix, else `00` → international, as libphonenumber reads them
 *    (`0011 354 611 0842` + AU is +354 611 0842); only if that is no number, national (Tajik numbers start `00`).
 * 5. Bare digits → both readings, international and national; no calling code reaches into a bracketed area code
 *    (`(201)-555-01928` + US is no Egyptian number). One valid reading is kept. Two valid readings of one number are
 *    one number. Two valid readings of different numbers are `ambiguous`: the national one when the digits start
 *    with the country's trunk prefix (`8 495 123-45-67` + RU is +7 495 123 45 67, not the Vietnamese mobile
 *    +84 951 234 567) or not with its calling code (`2389911584` + GB is +44 23 8991 1584, as libphonenumber reads
 *    it); else the one that can be a mobile when only one can (`491779486853` + DE is the mobile +49 177 9486853,
 *    not the landline 0491 779486853, DESIGN known traps; `390 300 5679` + IT the mobile +39 390 300 5679, not the
 *    landline 0300 5679); else the international one (`calling-code-digits`).
 * 6. National: with the country's trunk prefix (`07400 123456`, `8 912 …`, `06 20 …`, `1 212 …`) or without it
 *    (`7400 123456` + GB: `trunk-prefix-added`). A `0` that belongs to the number (Italian landlines) is never
 *    added: `612345678` + IT is `lost-leading-zero`.
 * 7. A country cell that cannot be read or names another calling code never loses a number that is valid with its
 *    own calling code (`country-ignored`); beside a national number (`(201) 544-6553`: its calling code would reach
 *    into the brackets), an unreadable cell is `bad-country`.
 *
 * Problems: `empty`, `not-a-number` (other characters, letters without a number, a decimal such as
 * `447400123456.0`), `letter-in-number`, `scientific-notation` (`4.47E+11`), `lost-leading-zero`, `too-short`,
 * `too-long`, `unknown-country` (no such calling code, or a national number without any country), `bad-country`,
 * `invalid` (a possible length, not an assigned range: UK `07700 900xxx`, the old Mexican mobile `+52 1 55…`).
 */
export const normalize = (input: string, options?: Options): Result.Result<Normalized, InvalidMsisdn> => {
  const reading = read(input, options)
  return typeof reading === "string"
    ? Result.fail(new InvalidMsisdn({ value: input, problem: reading }))
    : Result.succeed(reading)
}

/**
 * {@link normalize} answering the problem itself instead of an `InvalidMsisdn`: for a reader of millions of rows,
 * where an error object (and its stack trace) per refused row is a measurable share of the time.
 */
export const reading = (input: string, options?: Options): Normalized | MsisdnProblem => read(input, options)

const countryOf = (text: string, readCountry: CountryReader): Region | undefined => {
  const country = readCountry(text)
  return country === undefined ? undefined : regionOf(country)
}

/**
 * After an international prefix, as libphonenumber reads it: the country's own first (`009 1 684 733 1425` + NG is
 * American Samoa's +1 684 733 1425, `0011 354 611 0842` + AU Iceland's +354 611 0842, `001 662 325 1234` + TH
 * Thailand's +66 2 325 1234), then `00`, which libphonenumber refuses where the country's own is another
 * (`00 61 412 345 678` + AU, `00 82 10 2009 9407` + KR); where neither reads a number, national (Tajik numbers start
 * `00`).
 */
const afterPrefix = (digits: string, region: Region): Reading | undefined => {
  const own = region.idd.exec(digits)?.[0] ?? ""
  const prefix = digits.startsWith("00") ? "00" : own
  if (prefix === "") return undefined
  if (own !== "" && own !== prefix) {
    const reading = readInternational(digits.slice(own.length), "international", false)
    if (isNumber(reading)) return reading
  }
  const reading = readInternational(digits.slice(prefix.length), "international", false)
  if (isNumber(reading)) return reading
  const national = readNational(digits, region, false)
  return isNumber(national) ? national : readInternational(digits.slice(prefix.length), "international")
}

/**
 * Whether a calling code read after the first `skipped` digits of `text` keeps out of its first bracketed group:
 * brackets hold an area code, and no calling code reaches into them but one that ends a group of digits there
 * (`(44) 7400 123456`, `(0044) 7400 …`, `(1 201) 555 0123`, not `(201) 555-01928`); one before them or after them does.
 */
const outsideBracket = (text: string, skipped: number, code: string): boolean => {
  const open = text.search(/[(（]/)
  if (open < 0) return true
  const lead = text.slice(0, open).match(/\p{Nd}/gu)?.length ?? 0
  const after = skipped + code.length
  // Whether the code ends where a group of digits inside the brackets does (`end`: counted in the text's digits).
  let ends = false
  let end = lead
  for (const group of (text.slice(open + 1).split(/[)）]/)[0] ?? "").split(/\P{Nd}+/u)) {
    if ((end += [...group].length) === after) ends = true
  }
  return after <= lead || skipped >= end || (skipped >= lead && ends)
}

/**
 * The bare digits (no `+`) of `text` read internationally, after a leading `00` where there is no country to read
 * them in; a calling code that reaches into a bracketed area code is none.
 */
const readBare = (digits: string, rule: Rule, text: string, explain = true): Reading => {
  const skipped = rule === "international" && digits.startsWith("00") ? 2 : 0
  const reading = readInternational(digits.slice(skipped), rule, explain)
  return isNumber(reading) && !outsideBracket(text, skipped, reading.country_code) ? "invalid" : reading
}

/** The digits of `text` (no `+`) in the country `region`, or in none where it is `undefined`: rules 4 and 5. */
const readDigits = (digits: string, region: Region | undefined, text: string): Reading => {
  if (region === undefined) return readBare(digits, "international", text)
  const prefixed = afterPrefix(digits, region)
  if (prefixed !== undefined) return prefixed
  if (digits.charCodeAt(0) === 48) return readNational(digits, region)
  const codeFirst = digits.startsWith(region.callingCode)
  const rule: Rule = codeFirst ? "calling-code-digits" : "international"
  // Both readings, unexplained: a refusal is explained only when neither reading is a number (the rare case).
  const national = readNational(digits, region, false)
  const international = readBare(digits, rule, text, false)
  if (isNumber(international) && isNumber(national)) {
    if (international.msisdn === national.msisdn) return codeFirst ? international : national
    // Two numbers: rule 5 of `normalize`. The national reading where the digits start with the trunk prefix (no note:
    // none was added), the form people write a national number in, or do not start with the country's calling code:
    // libphonenumber's reading (`(658) 304-6817` + Jamaica is Jamaica's, not Singapore's mobile +65 8304 6817;
    // `2389911584` under the default GB the landline 023 8991 1584, not Cape Verde's +238 991 1584). Else, where only
    // one can be a mobile, that one; else the international one (the calling-code-first preference).
    const { trunk } = region
    if ((trunk !== undefined && digits.startsWith(trunk) && national.notes.length === 0) || !codeFirst) {
      return withNotes(national, ["ambiguous"])
    }
    return withNotes(mayBeMobile(international.msisdn) || !mayBeMobile(national.msisdn) ? international : national, ["ambiguous"])
  }
  if (isNumber(international)) return international
  if (isNumber(national)) return national
  return codeFirst ? readBare(digits, rule, text) : readNational(digits, region)
}

const read = (input: string, options: Options | undefined): Reading => {
  const written = Written.read(input)
  if (typeof written === "string") return written
  const cell = options?.country?.trim() ?? ""
  const fallback = options?.defaultCountry?.trim() ?? ""
  const countryText = cell !== "" ? cell : fallback
  const region = countryText === "" ? undefined : countryOf(countryText, options?.readCountry ?? codes)
  let reading: Reading
  if (written.plus) reading = readInternational(written.digits, "international")
  else if (countryText !== "" && region === undefined) {
    // An unreadable country: only a number carrying its own calling code can still be read, and not one whose code
    // reaches into a bracketed area code (`(201) 544-6553` beside `Narnia` is no Egyptian +20 154 465 53,
    // `8 (493) 348-09-35` no Vietnamese number); `33 (0)6 12…` and `0044 (0)20…` carry theirs.
    const international = readDigits(written.digits, undefined, input)
    reading = isNumber(international) ? international : cell !== "" ? "bad-country" : "unknown-country"
  } else reading = readDigits(written.digits, region, input)
  if (!isNumber(reading)) return reading
  const added: Array<Note> = []
  if (cell !== "" && (region === undefined || region.callingCode !== reading.country_code)) added.push("country-ignored")
  added.push(...written.repairs)
  return withNotes(reading, added)
}

/** {@link normalize} without the parts, the rule and the notes: the MSISDN or why the text is not one. */
export const parse = (input: string, options?: Options): Result.Result<Msisdn, InvalidMsisdn> => {
  const reading = read(input, options)
  return typeof reading === "string"
    ? Result.fail(new InvalidMsisdn({ value: input, problem: reading }))
    : Result.succeed(reading.msisdn)
}

const fromWire = (input: string | number): Result.Result<Msisdn, InvalidMsisdn> => {
  if (typeof input === "string") return parse(input)
  return Number.isSafeInteger(input) && input > 0
    ? parse(String(input))
    : Result.fail(new InvalidMsisdn({ value: String(input), problem: "not-a-number" }))
}

/**
 * The MSISDN as the wire carries it: text or a JSON number (`447400123456`), read in international form only (no
 * default country; bare digits start with the calling code). A number must be a positive safe integer (every
 * 15-digit MSISDN is one). Written as text.
 */
export const FromWire = /* @__PURE__ */ Wire.fromParser(Msisdn, fromWire)
