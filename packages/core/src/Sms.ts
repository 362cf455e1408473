/**
 * SMS rules: the short-name prefix budget, GSM-7/UCS-2 encoding choice and segmentation, look-alikes.
 * Parts split only where 3GPP TS 23.038/23.040 allow: never inside an escape pair or a surrogate pair.
 */
import * as Result from "effect/Result"
import { MessageTooLong } from "./Errors.ts"

/** The two data codings an SMS text can be sent in. */
export type Encoding = "GSM-7" | "UCS-2"

/** How a text is sent: its coding, its size in that coding's units, and the parts it is cut into. */
export interface Analysis {
  readonly encoding: Encoding
  /** Septets (GSM-7, an extension character counts 2) or UTF-16 code units (UCS-2). */
  readonly units: number
  /** The number of SMS billed: `parts.length`. */
  readonly segments: number
  /** The text cut into SMS parts; joined they give the text back. */
  readonly parts: ReadonlyArray<string>
}

/** A character that forces UCS-2, where it is, and the GSM-7 text to use instead when there is one. */
export interface Ucs2Character {
  readonly char: string
  /** Position in code points (not UTF-16 units) from the start of the text. */
  readonly index: number
  /** GSM-7 replacement; may be `""` for invisible characters that are best removed. */
  readonly suggestion?: string
}

/** What one SMS (`single`) or each part of a multipart SMS (`multipart`, 6 octets go to the UDH) holds. */
export const capacity: { readonly [E in Encoding]: { readonly single: number; readonly multipart: number } } = {
  "GSM-7": { single: 160, multipart: 153 },
  "UCS-2": { single: 70, multipart: 67 }
}

const ESCAPE = "\u001B"

/**
 * The GSM 03.38 (3GPP TS 23.038) default alphabet, indexed by septet value 0x00–0x7F.
 * 0x1B is the escape to the extension table: it is not a character users type, so a literal U+001B
 * in a text is not counted as GSM. 0x09 is the capital `Ç` (the lower-case `ç` is not in the table).
 */
export const gsmBasicTable: ReadonlyArray<string> = [
  // 0x00
  "@", "£", "$", "¥", "è", "é", "ù", "ì", "ò", "Ç", "\n", "Ø", "ø", "\r", "Å", "å",
  // 0x10
  "Δ", "_", "Φ", "Γ", "Λ", "Ω", "Π", "Ψ", "Σ", "Θ", "Ξ", ESCAPE, "Æ", "æ", "ß", "É",
  // 0x20
  " ", "!", "\"", "#", "¤", "%", "&", "'", "(", ")", "*", "+", ",", "-", ".", "/",
  // 0x30
  "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", ":", ";", "<", "=", ">", "?",
  // 0x40
  "¡", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O",
  // 0x50
  "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z", "Ä", "Ö", "Ñ", "Ü", "§",
  // 0x60
  "¿", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o",
  // 0x70
  "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z", "ä", "ö", "ñ", "ü", "à"
]

/**
 * The GSM 03.38 default extension table: septet value after the escape, and its character.
 * Each costs 2 septets (escape + value). Reserved entries (CR2 0x0D, SS2 0x1B) are left out.
 */
export const gsmExtensionTable: ReadonlyArray<readonly [septet: number, char: string]> = [
  [0x0a, "\f"],
  [0x14, "^"],
  [0x28, "{"],
  [0x29, "}"],
  [0x2f, "\\"],
  [0x3c, "["],
  [0x3d, "~"],
  [0x3e, "]"],
  [0x40, "|"],
  [0x65, "€"]
]

/** Septet cost per UTF-16 code unit: 0 not GSM, 1 basic table, 2 extension table. All GSM characters are in the BMP. */
const septetCosts: Uint8Array = (() => {
  const chars = [...gsmBasicTable, ...gsmExtensionTable.map(([, char]) => char)]
  const table = new Uint8Array(Math.max(...chars.map((char) => char.charCodeAt(0))) + 1)
  for (const char of gsmBasicTable) if (char !== ESCAPE) table[char.charCodeAt(0)] = 1
  for (const [, char] of gsmExtensionTable) table[char.charCodeAt(0)] = 2
  return table
})()

const septetCost = (unit: number): number => septetCosts[unit] ?? 0

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff

/**
 * Whether one character (one code point) is in the GSM-7 basic or extension table.
 * The escape U+001B itself is not: it only introduces extension characters on the air.
 */
export const isGsmCharacter = (char: string): boolean => char.length === 1 && septetCost(char.charCodeAt(0)) > 0

/** Whether every character of the text can be sent in GSM-7 (true for the empty text). */
export const isGsmText = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) if (septetCost(text.charCodeAt(i)) === 0) return false
  return true
}

/**
 * The length of a text in code points, the unit of the prefix budget: an emoji counts 1, as users
 * count it, not 2 as UTF-16 does. A lone surrogate counts 1.
 */
export const characterCount = (text: string): number => {
  let count = 0
  for (let i = 0; i < text.length; i++) {
    if (isHighSurrogate(text.charCodeAt(i)) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) i++
    count++
  }
  return count
}

/**
 * How many characters (code points) a text may have once `<short name>: ` is put in front of it:
 * `160 − (characters of short name + 2)`. Negative for a short name over 158 characters: then no text fits.
 */
export const budget = (shortName: string): number => capacity["GSM-7"].single - (characterCount(shortName) + 2)

/** The text as it is handed to the carrier: `<short name>: <text>`. Every outgoing text carries it. */
export const prefix = (shortName: string, text: string): string => `${shortName}: ${text}`

/**
 * The text itself when its length in code points is at most `budget(shortName)`, else `MessageTooLong`
 * with that length and the budget. The budget is in characters, not segments: a text within it may
 * still cost several SMS (extension characters, UCS-2), which `analyzePrefixed` tells.
 */
export const checkBudget = (shortName: string, text: string): Result.Result<string, MessageTooLong> => {
  const length = characterCount(text)
  const max = budget(shortName)
  return length <= max ? Result.succeed(text) : Result.fail(new MessageTooLong({ length, max }))
}

const single = (encoding: Encoding, units: number, text: string): Analysis => ({
  encoding,
  units,
  segments: 1,
  parts: [text]
})

const analyzeGsm = (text: string, septets: number): Analysis => {
  if (septets <= capacity["GSM-7"].single) return single("GSM-7", septets, text)
  const room = capacity["GSM-7"].multipart
  const parts: Array<string> = []
  let start = 0
  let used = 0
  for (let i = 0; i < text.length; i++) {
    const cost = septetCost(text.charCodeAt(i))
    if (used + cost > room) {
      parts.push(text.slice(start, i))
      start = i
      used = 0
    }
    used += cost
  }
  parts.push(text.slice(start))
  return { encoding: "GSM-7", units: septets, segments: parts.length, parts }
}

const analyzeUcs2 = (text: string): Analysis => {
  if (text.length <= capacity["UCS-2"].single) return single("UCS-2", text.length, text)
  const room = capacity["UCS-2"].multipart
  const parts: Array<string> = []
  let start = 0
  let used = 0
  for (let i = 0; i < text.length;) {
    const width = isHighSurrogate(text.charCodeAt(i)) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))
      ? 2
      : 1
    if (used + width > room) {
      parts.push(text.slice(start, i))
      start = i
      used = 0
    }
    used += width
    i += width
  }
  parts.push(text.slice(start))
  return { encoding: "UCS-2", units: text.length, segments: parts.length, parts }
}

/**
 * The encoding, size and parts of a text as an SMS. GSM-7 exactly when every character is in the
 * basic or extension table, else UCS-2. One SMS holds 160 septets / 70 units; beyond that every part
 * holds 153 / 67, filled greedily (the fewest parts). Policy (3GPP, not Twilio): a part boundary may
 * fall anywhere except inside an escape pair or a surrogate pair — grapheme clusters (flags, ZWJ
 * emoji, combining accents) may be split, since handsets reassemble the parts before display.
 * The empty text is one SMS with one empty part, as carriers bill it. Lone surrogates count as one
 * UCS-2 unit each. One pass over the UTF-16 units with a table lookup: it runs per message.
 */
export const analyze = (text: string): Analysis => {
  let septets = 0
  for (let i = 0; i < text.length; i++) {
    const cost = septetCost(text.charCodeAt(i))
    if (cost === 0) return analyzeUcs2(text)
    septets += cost
  }
  return analyzeGsm(text, septets)
}

/**
 * The analysis of the text as sent, prefix included: a non-GSM character in the short name makes
 * every message UCS-2, an extension character in it costs 2 septets.
 */
export const analyzePrefixed = (shortName: string, text: string): Analysis => analyze(prefix(shortName, text))

/**
 * SMS billed for one send: every part goes to every recipient and every monitor,
 * `segments × (recipients + monitors)`.
 */
export const sentCount = (segments: number, recipients: number, monitors: number): number =>
  segments * (recipients + monitors)

/**
 * Hand-picked GSM-7 look-alikes, for characters Unicode normalization does not bring into GSM:
 * typographic quotes, dashes, bullets, spaces and letters without a decomposition.
 */
export const lookAlikes: ReadonlyMap<string, string> = new Map([
  // single quotes, primes, accents used as apostrophes
  ["\u2018", "'"], ["\u2019", "'"], ["\u201A", "'"], ["\u201B", "'"], ["\u2032", "'"], ["\u0060", "'"],
  ["\u00B4", "'"], ["\u02BC", "'"], ["\u02B9", "'"],
  // double quotes, guillemets
  ["\u201C", "\""], ["\u201D", "\""], ["\u201E", "\""], ["\u201F", "\""], ["\u2033", "\""], ["\u00AB", "\""],
  ["\u00BB", "\""], ["\u02BA", "\""], ["\u2039", "<"], ["\u203A", ">"],
  // dashes and minus
  ["\u2010", "-"], ["\u2011", "-"], ["\u2012", "-"], ["\u2013", "-"], ["\u2014", "-"], ["\u2015", "-"],
  ["\u2212", "-"], ["\u2043", "-"],
  // bullets, dots, slashes, operators
  ["\u2022", "*"], ["\u2023", "*"], ["\u25E6", "*"], ["\u2219", "*"], ["\u00B7", "."], ["\u2044", "/"],
  ["\u2215", "/"], ["\u00D7", "x"], ["\u00F7", "/"], ["\u02C6", "^"], ["\u02DC", "~"], ["\u00A9", "(c)"],
  ["\u00AE", "(R)"],
  // whitespace that is not a space separator
  ["\t", " "], ["\u2028", "\n"], ["\u2029", "\n"],
  // letters without a Unicode decomposition
  ["\u0141", "L"], ["\u0142", "l"], ["\u0110", "D"], ["\u0111", "d"], ["\u00D0", "D"], ["\u00F0", "d"],
  ["\u0126", "H"], ["\u0127", "h"], ["\u0166", "T"], ["\u0167", "t"], ["\u0131", "i"], ["\u0152", "OE"],
  ["\u0153", "oe"], ["\u00DE", "Th"], ["\u00FE", "th"], ["\u1E9E", "SS"],
  // Greek capitals that GSM-7 writes with Latin letters (the others are in the basic table)
  ["\u0391", "A"], ["\u0392", "B"], ["\u0395", "E"], ["\u0396", "Z"], ["\u0397", "H"], ["\u0399", "I"],
  ["\u039A", "K"], ["\u039C", "M"], ["\u039D", "N"], ["\u039F", "O"], ["\u03A1", "P"], ["\u03A4", "T"],
  ["\u03A5", "Y"], ["\u03A7", "X"]
])

const spaceSeparator = /^\p{Zs}$/u
const invisible = /^[\p{Cf}\p{M}]$/u
const marks = /\p{M}/gu

/** Each character of `text` mapped by itself (GSM) or the hand-picked table; undefined if one has neither. */
const mapWhole = (text: string): string | undefined => {
  let out = ""
  for (const char of text) {
    if (isGsmCharacter(char)) out += char
    else {
      const alike = lookAlikes.get(char)
      if (alike === undefined) return undefined
      out += alike
    }
  }
  return out
}

/**
 * The GSM-7 text to use instead of one character (one code point), or undefined when there is none
 * (emoji, CJK, Cyrillic…). In order: the character itself if GSM; the hand-picked table; any Unicode
 * space → " "; invisible format characters and combining marks → "" (removed); the compatibility
 * form (NFKC: full-width letters, ligatures, `…` → `...`); the letter without its accents (NFKD minus
 * marks: `á` → `a`, `ç` → `c`: the base letter, never a differently accented GSM letter, which would
 * change the word). A result is always GSM-7 text.
 */
export const lookAlike = (char: string): string | undefined => {
  if (isGsmCharacter(char)) return char
  const picked = lookAlikes.get(char)
  if (picked !== undefined) return picked
  if (spaceSeparator.test(char)) return " "
  if (invisible.test(char)) return ""
  const compatible = char.normalize("NFKC")
  if (compatible !== char && isGsmText(compatible)) return compatible
  const bare = char.normalize("NFKD").replace(marks, "")
  // a spacing accent (`¨` → " ̈") would become a bare space: not a look-alike
  if (bare === "" || bare.includes(" ")) return undefined
  const mapped = mapWhole(bare)
  return mapped === "" ? undefined : mapped
}

/**
 * The characters of a text that force UCS-2 (not in the basic or extension table), in order, with
 * their code-point index and a GSM-7 look-alike when there is one. Empty exactly when the text is GSM-7.
 */
export const ucs2Characters = (text: string): ReadonlyArray<Ucs2Character> => {
  const found: Array<Ucs2Character> = []
  let index = 0
  for (const char of text) {
    if (!isGsmCharacter(char)) {
      const suggestion = lookAlike(char)
      found.push(suggestion === undefined ? { char, index } : { char, index, suggestion })
    }
    index++
  }
  return found
}

/**
 * The text with every character that has a GSM-7 look-alike replaced by it; characters without one
 * stay. GSM-7 exactly when every character forcing UCS-2 had a look-alike; a GSM-7 text is unchanged.
 */
export const gsmSafe = (text: string): string => {
  if (isGsmText(text)) return text
  // Composed first: a letter and its accent as two characters (`e` + U+0301, as macOS writes it) is the GSM letter
  // `é`, where read one by one the accent was dropped.
  const composed = text.normalize("NFC")
  let out = ""
  for (const char of composed) out += lookAlike(char) ?? char
  return out
}
