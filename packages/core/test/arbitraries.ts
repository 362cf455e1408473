/**
 * Shared fast-check arbitraries for the core's property tests.
 * Each section names the module it serves; append new sections, keep existing ones stable.
 */
import * as fc from "fast-check"
import codes from "i18n-iso-countries/codes.json" with { type: "json" }
import {
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  getExampleNumber,
  Metadata
} from "libphonenumber-js/max"
import examples from "libphonenumber-js/mobile/examples"

// ---------------------------------------------------------------------------------------------
// Sms: characters chosen so the interesting segment boundaries (escape pairs, surrogate pairs,
// GSM-7 / UCS-2 switch) are hit. The alphabet is spelled here independently of src/Sms.ts (with
// escapes for everything outside ASCII) so tests check the module against it, not against itself.

/** GSM 03.38 basic table in septet order, 0x00–0x7F; 0x1B is the escape (not a user character). */
export const gsmBasicAlphabet =
  "@\u00A3$\u00A5\u00E8\u00E9\u00F9\u00EC\u00F2\u00C7\n\u00D8\u00F8\r\u00C5\u00E5" +
  "\u0394_\u03A6\u0393\u039B\u03A9\u03A0\u03A8\u03A3\u0398\u039E\u001B\u00C6\u00E6\u00DF\u00C9" +
  " !\"#\u00A4%&'()*+,-./" +
  "0123456789:;<=>?" +
  "\u00A1ABCDEFGHIJKLMNOPQRSTUVWXYZ\u00C4\u00D6\u00D1\u00DC\u00A7" +
  "\u00BFabcdefghijklmnopqrstuvwxyz\u00E4\u00F6\u00F1\u00FC\u00E0"

/** GSM 03.38 extension table characters: 2 septets each (escape + value). */
export const gsmExtensionAlphabet = "\f^{}\\[~]|\u20AC"

const gsmBasicChars: ReadonlyArray<string> = [...gsmBasicAlphabet].filter((c) => c !== "\u001B")
const gsmExtensionChars: ReadonlyArray<string> = [...gsmExtensionAlphabet]
const gsmSet: ReadonlySet<string> = new Set([...gsmBasicChars, ...gsmExtensionChars])

/** Whether a character (code point) is GSM-7, by the alphabet above. */
export const isGsmOracle = (char: string): boolean => gsmSet.has(char)

/** Septets of a GSM-7 text by the alphabet above (extension characters 2). */
export const septetsOracle = (text: string): number => {
  let septets = 0
  for (const char of text) septets += gsmExtensionChars.includes(char) ? 2 : 1
  return septets
}

export const gsmBasicChar: fc.Arbitrary<string> = fc.constantFrom(...gsmBasicChars)
export const gsmExtensionChar: fc.Arbitrary<string> = fc.constantFrom(...gsmExtensionChars)

/** A BMP character outside both GSM tables: common offenders plus any non-surrogate BMP code point. */
export const bmpNonGsmChar: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "\u2018", "\u2019", "\u201C", "\u201D", "\u2013", "\u2014", "\u2026", "\u00A0", "\t", "\u00E1", "\u00E7",
    "\u00EA", "\u0436", "\u4E2D", "\u200B", "\u0301", "\u001B", "`"
  ),
  fc.integer({ min: 0, max: 0xffff })
    .filter((c) => c < 0xd800 || c > 0xdfff)
    .map((c) => String.fromCharCode(c))
    .filter((c) => !isGsmOracle(c))
)

/** An astral character (a surrogate pair in UTF-16): mostly emoji, sometimes any plane. */
export const astralChar: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 0x1f300, max: 0x1faff }).map((c) => String.fromCodePoint(c)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c))
)

/** A lone surrogate (invalid UTF-16 that JavaScript strings can still hold). */
export const loneSurrogate: fc.Arbitrary<string> = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) =>
  String.fromCharCode(c)
)

/**
 * GSM-7 text, often long enough to need several parts, with extension characters in it.
 * `size: "max"`: by default fast-check keeps arrays about 10 long, far from any SMS boundary.
 */
export const gsmText: fc.Arbitrary<string> = fc
  .array(fc.oneof({ arbitrary: gsmBasicChar, weight: 5 }, { arbitrary: gsmExtensionChar, weight: 1 }), {
    maxLength: 480,
    size: "max"
  })
  .map((chars) => chars.join(""))

/** Text of the four kinds of character, drawn in the ratio of `weights` (basic, extension, BMP non-GSM, astral). */
const charMix = (
  weights: readonly [basic: number, extension: number, bmpNonGsm: number, astral: number],
  length: fc.ArrayConstraints
): fc.Arbitrary<string> => {
  const [basic, extension, bmpNonGsm, astral] = weights
  const char = fc.oneof(
    { arbitrary: gsmBasicChar, weight: basic },
    { arbitrary: gsmExtensionChar, weight: extension },
    { arbitrary: bmpNonGsmChar, weight: bmpNonGsm },
    { arbitrary: astralChar, weight: astral }
  )
  return fc.array(char, length).map((chars) => chars.join(""))
}

/** Text mixing every kind of character, so it is UCS-2 unless it happens to be short and GSM. */
export const mixedText: fc.Arbitrary<string> = charMix([6, 2, 1, 2], { maxLength: 220, size: "max" })

/** Any SMS text (well-formed UTF-16): GSM-7 or UCS-2, short or multipart. */
export const smsText: fc.Arbitrary<string> = fc.oneof(gsmText, mixedText)

/** A short name: mostly GSM letters, sometimes an extension or non-GSM character. */
export const shortName: fc.Arbitrary<string> = charMix([10, 1, 1, 1], { minLength: 1, maxLength: 20 })

// ---------------------------------------------------------------------------------------------
// Msisdn: the metadata's example numbers of every country, written every way people write them, in rows whose
// country cell is empty, a code or a name. The expected reading is libphonenumber's reading of the E.164 form.

/** An example number of a country: its E.164 digits (no `+`) and how its country writes it nationally. */
export interface ExampleNumber {
  readonly country: CountryCode
  readonly callingCode: string
  readonly e164: string
  /** The national format's digits (`07400123456`), trunk prefix included where the country writes one. */
  readonly national: string
  /** The national number without any prefix (`7400123456`). */
  readonly nationalNumber: string
}

export const exampleNumbers: ReadonlyArray<ExampleNumber> = getCountries().flatMap((country) => {
  const example = getExampleNumber(country, examples)
  if (example === undefined || !example.isValid()) return []
  return [{
    country,
    callingCode: example.countryCallingCode,
    e164: example.number.slice(1),
    national: example.formatNational().replace(/[^0-9]/g, ""),
    nationalNumber: example.nationalNumber
  }]
})

/**
 * The digits of an example written one way; `bare` marks forms whose reading may be documented as ambiguous, `lead`
 * counts the characters of its international prefix and calling code (none in a national form), which no bracketed
 * area code splits.
 */
export interface WrittenForm {
  readonly name: string
  readonly text: string
  readonly bare: boolean
  readonly lead: number
}

const idd = (country: CountryCode): string | undefined => {
  const plans = new Metadata()
  plans.selectNumberingPlan(country)
  // A plain international prefix, else the one the metadata gives for dialling (`0011` where the prefix is a pattern).
  const prefix = plans.numberingPlan?.IDDPrefix()
  if (prefix !== undefined && /^[0-9]+$/.test(prefix)) return prefix
  const preferred = plans.numberingPlan?.defaultIDDPrefix()
  return prefix !== undefined && preferred !== undefined && new RegExp(`^(?:${prefix})$`).test(preferred)
    ? preferred
    : undefined
}

/** Forms written with the number's own country known (a national form needs it). */
export const forms = (example: ExampleNumber): ReadonlyArray<WrittenForm> => {
  const code = example.callingCode.length
  const out: Array<WrittenForm> = [
    { name: "plus", text: "+" + example.e164, bare: false, lead: 1 + code },
    { name: "00", text: "00" + example.e164, bare: false, lead: 2 + code },
    { name: "bare", text: example.e164, bare: true, lead: code },
    { name: "national", text: example.national, bare: example.national === example.nationalNumber, lead: 0 },
    { name: "plus-trunk", text: "+" + example.callingCode + " " + example.national, bare: false, lead: 2 + code }
  ]
  const own = idd(example.country)
  if (own !== undefined) out.push({ name: "idd", text: own + example.e164, bare: false, lead: own.length + code })
  if (example.national !== example.nationalNumber) {
    out.push({ name: "national-without-trunk", text: example.nationalNumber, bare: true, lead: 0 })
  }
  return out
}

/** Zero digits of scripts people type numbers in: full-width, Arabic-Indic, Persian, Devanagari, Bengali, Thai. */
const zeros = [0xff10, 0x660, 0x6f0, 0x966, 0x9e6, 0xe50]

/** The text with every ASCII digit written in another script. */
export const inScript = (text: string, zero: number): string =>
  text.replace(/[0-9]/g, (d) => String.fromCodePoint(zero + Number(d)))

const phoneSeparator = fc.constantFrom("", "", "", " ", "-", ".", "/", "\u00A0", "\u2013")

/**
 * A written form with separators between its characters (never inside a leading `+`), maybe one run of its digits
 * after its lead in brackets, as people bracket an area code (`(0)20`, `(020)`: never part of a calling code, as in
 * `2(37)…`), or its lead (`(0044)`), maybe in another script.
 */
export const decorate = (form: WrittenForm): fc.Arbitrary<string> => {
  const { text, lead } = form
  return fc.tuple(
    fc.array(phoneSeparator, { minLength: text.length + 1, maxLength: text.length + 1 }),
    fc.option(
      fc.oneof(
        fc.tuple(fc.integer({ min: lead, max: Math.max(lead, text.length - 1) }), fc.integer({ min: 1, max: 5 })),
        // The lead itself bracketed, `(0044) 7400 …`, where the form has one.
        fc.constant([lead === 0 ? -1 : 0, lead] as const)
      ),
      { nil: undefined }
    ),
    fc.option(fc.constantFrom(...zeros), { nil: undefined, freq: 3 })
  ).map(([seps, bracket, zero]) => {
    const [open, length] = bracket ?? [-1, 0]
    const close = Math.min(text.length, open + length) - 1
    const spaced = [...text].map((char, i) =>
      (i === 0 && char === "+" ? "" : seps[i]) + (i === open ? "(" : "") + char + (i === close ? ")" : "")
    ).join("") + seps[text.length]
    return zero === undefined ? spaced : inScript(spaced, zero)
  })
}

/** A country cell naming the example's country: its codes, its calling code, its English or its own name. */
export const countryCell = (country: CountryCode): fc.Arbitrary<string> => {
  const cells: Array<string> = [country, country.toLowerCase(), "+" + getCountryCallingCode(country)]
  const alpha3 = codes.find(([alpha2]) => alpha2 === country)?.[1]
  if (alpha3 !== undefined) cells.push(alpha3)
  const english = new Intl.DisplayNames(["en"], { type: "region" }).of(country)
  if (english !== undefined && english !== country) cells.push(english, english.toUpperCase())
  const language = new Intl.Locale("und-" + country).maximize().language
  const own = new Intl.DisplayNames([language], { type: "region" }).of(country)
  if (own !== undefined && own !== country) cells.push(own)
  return fc.constantFrom(...cells)
}

/** A row: an example number written one way, the country cell, and the import's default country. */
export interface PolicyRow {
  readonly example: ExampleNumber
  readonly form: WrittenForm
  readonly text: string
  readonly cell: string
  readonly defaultCountry: string | undefined
}

/**
 * Rows whose country is known (a cell naming it, or an empty cell and the default) in every form, and rows with an
 * empty cell and another default country, in the international forms only.
 */
export const policyRow: fc.Arbitrary<PolicyRow> = fc.constantFrom(...exampleNumbers).chain((example) =>
  fc.oneof(
    fc.tuple(fc.constantFrom(...forms(example)), fc.oneof(fc.constant(""), countryCell(example.country)))
      .chain(([form, cell]) =>
        decorate(form).map((text) => ({
          example,
          form,
          text,
          cell,
          defaultCountry: cell === "" ? example.country : "GB"
        }))
      ),
    fc.tuple(
      fc.constantFrom(...forms(example).filter((form) => form.name === "plus" || form.name === "00" || form.name === "bare")),
      fc.constantFrom("GB", "US", "DE", "IN", "BR", "KE")
    ).chain(([form, defaultCountry]) =>
      decorate(form).map((text) => ({ example, form, text, cell: "", defaultCountry }))
    )
  )
)
