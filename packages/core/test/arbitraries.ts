/**
 * Shared fast-check arbitraries for the core's property tests.
 * Each section names the module it serves; append new sections, keep existing ones stable.
 */
import * as fc from "fast-check"

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

/** Text mixing every kind of character, so it is UCS-2 unless it happens to be short and GSM. */
export const mixedText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { arbitrary: gsmBasicChar, weight: 6 },
      { arbitrary: gsmExtensionChar, weight: 2 },
      { arbitrary: bmpNonGsmChar, weight: 1 },
      { arbitrary: astralChar, weight: 2 }
    ),
    { maxLength: 220, size: "max" }
  )
  .map((chars) => chars.join(""))

/** Any SMS text (well-formed UTF-16): GSM-7 or UCS-2, short or multipart. */
export const smsText: fc.Arbitrary<string> = fc.oneof(gsmText, mixedText)

/** A short name: mostly GSM letters, sometimes an extension or non-GSM character. */
export const shortName: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { arbitrary: gsmBasicChar, weight: 10 },
      { arbitrary: gsmExtensionChar, weight: 1 },
      { arbitrary: bmpNonGsmChar, weight: 1 },
      { arbitrary: astralChar, weight: 1 }
    ),
    { minLength: 1, maxLength: 20 }
  )
  .map((chars) => chars.join(""))
