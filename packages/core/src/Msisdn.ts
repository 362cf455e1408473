/**
 * MSISDN: a phone number in international form, digits only (country calling code + national number, E.164).
 * Parsing turns what people and spreadsheets write into one, or names why it cannot (libphonenumber-js "max").
 */
import { Result, Schema } from "effect"
import parsePhoneNumber, {
  type CountryCode,
  getCountryCallingCode,
  isSupportedCountry,
  Metadata,
  type PhoneNumber,
  validatePhoneNumberLength
} from "libphonenumber-js/max"
import metadata from "libphonenumber-js/max/metadata"
import { InvalidField, InvalidMsisdn, type MsisdnProblem } from "./Errors.ts"
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
 * Which documented reading of the input produced the number, so an import can count them:
 * - `international`: written with `+` or `00` (or another country's international prefix, e.g. `011` from the US);
 * - `national`: national digits read with the default country (with its trunk prefix, e.g. `07400 123456`, or
 *   where the country writes none, e.g. `212 555 0123` in the US);
 * - `trunk-zero-dropped`: a trunk `0` written after the calling code was removed (`+44 (0)7400 123456`,
 *   `4407400123456`);
 * - `calling-code-digits`: bare digits starting with the default country's calling code, read as international
 *   (`447400123456` with GB).
 */
export type Rule = "international" | "national" | "trunk-zero-dropped" | "calling-code-digits"

/** A parsed number: the MSISDN, its two parts as the interface names them, and the reading that was applied. */
export interface Normalized {
  readonly msisdn: Msisdn
  readonly country_code: string
  readonly phone_number: string
  readonly rule: Rule
}

export interface Options {
  /** The country of national numbers: ISO 3166 alpha-2 (`"GB"`, any case) or a calling code (`"44"`, `"+44"`). */
  readonly defaultCountry?: string | undefined
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
  for (let length = 1; length <= 3; length++) {
    const code = m.slice(0, length)
    if (callingCodes.has(code)) return { country_code: code, phone_number: m.slice(length) }
  }
  return { country_code: m.slice(0, 3), phone_number: m.slice(3) }
}

const callingCodePattern = /^\+?([1-9][0-9]{0,2})$/

/**
 * The calling code of a country, for the import's country column: an ISO 3166 alpha-2 code in any case (`"gb"` →
 * `"44"`), or a calling code given directly (`"44"`, `"+44"`, kept only if the metadata knows it). Surrounding
 * whitespace is ignored.
 */
export const callingCode = (country: string): Result.Result<string, InvalidField> => {
  const text = country.trim()
  const direct = callingCodePattern.exec(text)
  if (direct !== null) {
    const code = direct[1] ?? ""
    return callingCodes.has(code)
      ? Result.succeed(code)
      : Result.fail(new InvalidField({ field: "country", value: country, reason: "no country has this calling code" }))
  }
  const upper = text.toUpperCase()
  return isSupportedCountry(upper)
    ? Result.succeed(getCountryCallingCode(upper))
    : Result.fail(
      new InvalidField({
        field: "country",
        value: country,
        reason: "not an ISO 3166 alpha-2 country code nor a calling code"
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
  const main = callingCodes.has(digits) ? metadata.country_calling_codes[digits]?.[0] : undefined
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

interface Country {
  readonly callingCode: string
  readonly parseOptions: { readonly extract: false; readonly defaultCountry: CountryCode }
}

/** Resolved default countries by the text the caller gave; only successes are kept, so it stays small. */
const countries = new Map<string, Country>()

const resolveCountry = (text: string): Country | undefined => {
  const cached = countries.get(text)
  if (cached !== undefined) return cached
  const upper = text.trim().toUpperCase()
  const region = isSupportedCountry(upper) ? upper : Result.getOrUndefined(regionFor(upper))
  if (region === undefined) return undefined
  const country: Country = {
    callingCode: getCountryCallingCode(region),
    parseOptions: { extract: false, defaultCountry: region }
  }
  countries.set(text, country)
  return country
}

// ---------------------------------------------------------------------------------------------
// Cheap clean-up before libphonenumber

/**
 * More digits (after `+` or `00`) cannot be a number: 15, a trunk `0`, or a 3-digit international prefix such as
 * `011` before 15. Refused before parsing, so a long text costs nothing.
 */
const maxInputDigits = 18

const isSeparator = (c: number): boolean =>
  c === 32 || c === 46 || c === 45 || c === 40 || c === 41 || c === 47 || c === 9 || c === 160 ||
  (c >= 0x2000 && c <= 0x200a) || (c >= 0x2010 && c <= 0x2015) || c === 0x202f || c === 0x205f ||
  c === 0x2212 || c === 0x3000

/** `4.47E+11`, `4,47E+11`, `4.47e11`: a spreadsheet showed the number in scientific notation and lost digits. */
const scientific = /^[+-]?[0-9]+(?:[.,][0-9]+)?[eE][+-]?[0-9]+$/

/** `447400123456.0`: a spreadsheet or a script stored the number as a decimal. */
const decimal = /^[0-9]{6,}\.0+$/

interface Cleaned {
  /** The digits, without the `+` or `00`. */
  readonly digits: string
  /** How the number was written: with `+` or `00` the digits start with the calling code. */
  readonly prefix: "+" | "00" | ""
}

/**
 * Keeps the digits of a text, or says why it is not a phone number. Accepts an optional `tel:` prefix, one `+`
 * before the first digit, and separators (whitespace, `.`, `-`, `(`, `)`, `/`, Unicode dashes) anywhere.
 */
const clean = (input: string): Cleaned | MsisdnProblem => {
  const text = input.trim()
  if (text === "") return "empty"
  let start = 0
  if (
    text.length >= 4 && (text.charCodeAt(0) | 32) === 116 && (text.charCodeAt(1) | 32) === 101 &&
    (text.charCodeAt(2) | 32) === 108 && text.charCodeAt(3) === 58
  ) start = 4
  let digits = ""
  let plus = false
  let dot = false
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 48 && c <= 57) digits += text[i]
    else if (c === 43 && !plus && digits === "") plus = true
    else if (isSeparator(c)) dot ||= c === 46
    else return scientific.test(text) ? "scientific-notation" : "not-a-number"
  }
  if (digits === "") return plus ? "too-short" : "empty"
  if (dot && decimal.test(text)) return "not-a-number"
  const prefix = plus ? "+" : digits.startsWith("00") ? "00" : ""
  const number = prefix === "00" ? digits.slice(2) : digits
  if (number === "") return "too-short"
  if (number.length > maxInputDigits) return "too-long"
  return { digits: number, prefix }
}

// ---------------------------------------------------------------------------------------------
// Readings

const internationalOptions: { readonly extract: false } = { extract: false }

type Reading = Normalized | MsisdnProblem

const fromLength = (text: string, options: { readonly defaultCountry?: CountryCode }): MsisdnProblem => {
  switch (validatePhoneNumberLength(text, options)) {
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

const plans = new Metadata()

/**
 * Why a parsed number is not valid, by the possible lengths of its country (of the main country of its calling code
 * when the number fits none): what `validatePhoneNumberLength` answers, without parsing the text a second time
 * (that costs ~70 µs for an invalid GB number).
 */
const problemOf = (
  number: PhoneNumber | undefined,
  text: string,
  options: { readonly defaultCountry?: CountryCode }
): MsisdnProblem => {
  if (number === undefined) return fromLength(text, options)
  if (number.isPossible()) return "invalid"
  const region = number.country ?? Result.getOrUndefined(regionFor(number.countryCallingCode))
  if (region === undefined) return fromLength(text, options)
  plans.selectNumberingPlan(region)
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

const accept = (number: PhoneNumber, rule: Rule): Reading => {
  const msisdn = number.number.slice(1)
  if (!isMsisdn(msisdn)) return msisdn.length > maxLength ? "too-long" : "invalid"
  return { msisdn, country_code: number.countryCallingCode, phone_number: number.nationalNumber, rule }
}

/**
 * Digits that start with a calling code. libphonenumber also removes a trunk prefix written after the code; only a
 * single `0` is taken as one (`+44 (0)7400…`), anything else it would remove (`+7 8 912…`) is refused as invalid.
 */
const readInternational = (digits: string, rule: Rule): Reading => {
  if (digits.charCodeAt(0) === 48) return "unknown-country"
  const text = "+" + digits
  const number = parsePhoneNumber(text, internationalOptions)
  if (number === undefined || !number.isValid()) return problemOf(number, text, {})
  const code = number.countryCallingCode
  if (number.number === text) return accept(number, rule)
  return digits === code + "0" + number.nationalNumber ? accept(number, "trunk-zero-dropped") : "invalid"
}

/** The first digit of the number as its country writes it nationally (`0` for `07400 123456`). */
const nationalFirstDigit = (number: PhoneNumber): string => {
  const national = number.formatNational()
  for (let i = 0; i < national.length; i++) {
    const c = national.charCodeAt(i)
    if (c >= 48 && c <= 57) return national[i] ?? ""
  }
  return ""
}

/** Bare digits with a default country; the order of the readings is documented on {@link normalize}. */
const readNational = (digits: string, country: Country): Reading => {
  const options = country.parseOptions
  const national = (number: PhoneNumber): Reading =>
    accept(number, number.countryCallingCode === country.callingCode ? "national" : "international")
  if (digits.charCodeAt(0) === 48) {
    const number = parsePhoneNumber(digits, options)
    return number !== undefined && number.isValid() ? national(number) : problemOf(number, digits, options)
  }
  if (digits.startsWith(country.callingCode)) {
    const reading = readInternational(digits, "calling-code-digits")
    if (typeof reading !== "string") return reading
  }
  const number = parsePhoneNumber(digits, options)
  if (number !== undefined && number.isValid()) {
    return number.countryCallingCode === country.callingCode && nationalFirstDigit(number) === "0"
      ? "lost-leading-zero"
      : national(number)
  }
  const restored = parsePhoneNumber("0" + digits, options)
  if (restored !== undefined && restored.isValid() && restored.countryCallingCode === country.callingCode) {
    return "lost-leading-zero"
  }
  return problemOf(number, digits, options)
}

/**
 * Reads a phone number as people and spreadsheets write it, and says which reading applied. Never throws.
 *
 * Accepted: `+44 7400 123456`, `00447400123456`, `tel:+44-7400-123456`, `(+44) 7400 123456`, `+44 (0)7400 123456`;
 * with a default country also national forms (`07400 123456` + GB) and bare digits carrying the calling code
 * (`447400123456` + GB). Separators: whitespace, `.`, `-`, `(`, `)`, `/`, Unicode dashes. ASCII digits only.
 * Validity uses the "max" metadata, so reserved ranges are refused (UK `07700 900xxx`, kept for drama), and so is
 * the old Mexican mobile form `+52 1 55…` (the `1` was abolished in 2019: one digit too many, `too-long`).
 *
 * Rule order:
 * 1. `+` → international (a trunk `0` right after the calling code is dropped: `trunk-zero-dropped`).
 * 2. `00` → international; only if that is no number, national with the default country (Tajik numbers start `00`).
 * 3. Bare digits without a default country (absent or blank) → international.
 * 4. Bare digits starting with `0` → national (libphonenumber removes the trunk prefix, or another international
 *    prefix such as `011` in the US: then the rule is `international`).
 * 5. Bare digits starting with the default country's calling code → international first (`calling-code-digits`):
 *    `491779486853` + DE is the mobile +49 177 9486853, not the landline 0491 779486853 that a national reading
 *    also finds valid (DESIGN, known traps). The price: an Italian mobile written nationally as `390 743 4457` reads
 *    as the landline +39 0743 4457; it has to be written `+39 390…`.
 * 6. Other bare digits → national, but refused as `lost-leading-zero` (never repaired: the import reports the
 *    damaged column instead of guessing) when the country writes that number with a leading `0` the digits lack
 *    (`7400123456` + GB, `1779486853` + DE) or when only `0` + digits is valid (`612345678` + IT, from
 *    `06 1234 5678`). Countries that write no trunk prefix read normally (`212 555 0123` + US, `9123456789` + RU).
 *    Another country's number without `+` is not guessed at: it fails as a national number.
 *
 * Problems: `empty` (nothing but whitespace and separators, or a bare `tel:`); `not-a-number` (letters, an
 * extension, any other character, a decimal such as `447400123456.0`); `scientific-notation` (`4.47E+11`,
 * `4,47E+11`); `lost-leading-zero` (rule 6); `too-short`, `too-long` (by the country's possible lengths, or a `+`
 * or `00` with nothing after it); `unknown-country` (no such calling code, a national number without a default
 * country, or a default country that is neither an ISO code nor a calling code, when one is needed); `invalid`
 * (a possible length, not an assigned range).
 */
export const normalize = (input: string, options?: Options): Result.Result<Normalized, InvalidMsisdn> => {
  const reading = read(input, options)
  return typeof reading === "string"
    ? Result.fail(new InvalidMsisdn({ value: input, problem: reading }))
    : Result.succeed(reading)
}

const read = (input: string, options: Options | undefined): Reading => {
  const cleaned = clean(input)
  if (typeof cleaned === "string") return cleaned
  const defaultCountry = options?.defaultCountry
  if (cleaned.prefix === "+" || defaultCountry === undefined || defaultCountry.trim() === "") {
    return readInternational(cleaned.digits, "international")
  }
  const country = resolveCountry(defaultCountry)
  if (cleaned.prefix === "") return country === undefined ? "unknown-country" : readNational(cleaned.digits, country)
  const international = readInternational(cleaned.digits, "international")
  if (typeof international !== "string" || country === undefined) return international
  const national = readNational("00" + cleaned.digits, country)
  return typeof national === "string" ? international : national
}

/** {@link normalize} without the parts and the rule: the MSISDN or why the text is not one. Never throws. */
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
