/**
 * A written phone number reduced to its digits: any Unicode decimal digit, vanity letters, separators, an
 * extension and a leading `+` or `tel:` handled the way Google's libphonenumber reads them, or why it is no number.
 */
import type { MsisdnProblem } from "../Errors.ts"

export interface Written {
  /** ASCII digits, `+` (if any) removed. */
  readonly digits: string
  /** Whether the number was written with a leading `+` (or a full-width `＋`). */
  readonly plus: boolean
  /** What the reading left out or converted, in this order (`Msisdn.Note`s). */
  readonly repairs: ReadonlyArray<Repair>
}

/**
 * - `extension-dropped`: an extension was left out (`ext. 123`);
 * - `letters-converted`: vanity letters were read on the keypad (`1-800-FLOWERS`).
 */
export type Repair = "extension-dropped" | "letters-converted"

const none: ReadonlyArray<Repair> = []

/**
 * More digits than this cannot be a number: 15, plus a 4-digit international prefix (`0011` from Australia) or a
 * trunk prefix. Refused before parsing, so a long text costs nothing.
 */
const maxDigits = 20

/** `4.47E+11`, `4,47E+11`, `4.47e11`: a spreadsheet showed the number in scientific notation and lost digits. */
const scientific = /^[+-]?[0-9]+(?:[.,][0-9]+)?[eE][+-]?[0-9]+$/

/** The common written form: ASCII digits, spaces, `-`, `(`, `)`, `/`, `.`, one leading `+`. */
const plain = /^\+?[0-9 ()\-/.]*$/

/**
 * What may wrap a number: a `tel:` URI's scheme, a spreadsheet's text formula (`="07400 123456"`, written by exports
 * that keep a leading zero) and the apostrophe that makes a cell text (`'07400 123456`).
 */
const wrapping = /^(?:tel:|'+|="(.*)"$)/i

/** `447400123456.0`: a spreadsheet or a script stored the number as a decimal. */
const decimal = /^[0-9]{6,}\.0+$/

/**
 * An extension at the end: `ext. 123`, `extension 123`, `x123`, `#123`, `;ext=123` (RFC 3966), `доб. 123`, German
 * `App. 12`, also in brackets (`(ext 5)`), after a number that ends in a digit or a bracket. Digits may be any decimal
 * digits.
 */
const extension =
  /^(.*[\p{Nd})])\s*,?\s*[([]?\s*(?:;\s*ext\s*=|(?:extension|extn|ext|ex|app|x|#|доб)\.?\s*:?)\s*\p{Nd}{1,7}\s*#?[)\]]?$/iu

/**
 * A word set apart after a number's digits (`0664 123456 home`, `030 1234567 (fax)`): never vanity letters where the
 * digits before it already make a number (8 or more), or `home` made another Austrian number on the keypad. Such a
 * cell is no number here; an import reads the label apart (`Mob: 07400 123456` too: the batch's `phoneCells.ts`).
 */
const wordAfter = /[\s([]+\p{L}[\p{L}\p{M}\s.'’()[\]]*$/u

/** Letters on a phone keypad (ITU E.161), as Google's libphonenumber converts them. */
const keypad = "22233344455566677778889999"

// Spaces, dashes, dots, slashes and brackets of every width, and the invisible marks a number copied from a phone or
// a right-to-left text carries (zero-width characters, U+200E/U+200F direction marks, U+202A–U+202E and
// U+2066–U+2069 embeddings and isolates).
// One character class rather than a chain of comparisons: this path reads only the unusual forms, and the class is
// a third of the chain's size in a browser bundle (`@smsbook/core/Msisdn`'s budget, docs/benchmarks.md).
const separator = /[\t .\-()/[\]\u00a0\u00ad\u2000-\u2015\u202a-\u202f\u205f-\u2069\u2212\u3000\u30fc\ufeff\uff08\uff09\uff0d-\uff0f\uff3b\uff3d]/

const isDecimalDigit = /^\p{Nd}$/u

/**
 * The value of a Unicode decimal digit (`\p{Nd}`), or -1. Unicode encodes every decimal digit in a contiguous run
 * from 0 to 9 (a stability policy), so the value is the distance from the run's start, counted mod 10 because
 * some runs hold several sets (mathematical digits).
 */
const digitValue = (code: number): number => {
  if (code < 0x660 || !isDecimalDigit.test(String.fromCodePoint(code))) return -1
  let start = code
  while (isDecimalDigit.test(String.fromCodePoint(start - 1))) start--
  return (code - start) % 10
}

/** Digit values of the code points outside ASCII seen so far; few scripts appear in one file. */
const values = new Map<number, number>()

const valueOf = (code: number): number => {
  if (code < 128) return code >= 48 && code <= 57 ? code - 48 : -1
  let value = values.get(code)
  if (value === undefined) {
    value = digitValue(code)
    values.set(code, value)
  }
  return value
}

const letterValue = (code: number): string | undefined => {
  const upper = code >= 97 && code <= 122 ? code - 32 : code >= 0xff21 && code <= 0xff3a ? code - 0xff21 + 65 :
    code >= 0xff41 && code <= 0xff5a ? code - 0xff41 + 65 : code
  return upper >= 65 && upper <= 90 ? keypad[upper - 65] : undefined
}

/**
 * {@link read} of the way most numbers are written: ASCII digits, spaces, `-`, `(`, `)`, `/`, `.` and one leading
 * `+`; `undefined` for any other text, which {@link readAny} reads. Such text can hold no extension, letters
 * or `tel:`, and only a `.` can make it a decimal, so it skips their patterns (a row reads ~15 % faster).
 */
export const readPlain = (text: string): Written | MsisdnProblem | undefined => {
  if (!plain.test(text)) return undefined
  if (decimal.test(text)) return "not-a-number"
  const digits = text.replace(/\D/g, "")
  const plus = text.charCodeAt(0) === 43
  if (digits === "") return plus ? "too-short" : "empty"
  if (digits.length > maxDigits) return "too-long"
  return { digits, plus, repairs: none }
}

/**
 * Reads the digits of a written number. A spreadsheet's text form (`="…"`, `'…`) is unwrapped first. A `tel:`
 * prefix, one `+` before the first digit and separators (spaces, `.`, `-`, `/`, brackets, their full-width and
 * Unicode forms) are allowed anywhere. A word set apart after a whole number refuses it (`wordAfter`). Other letters
 * are converted by the
 * keypad only when there are three or more of them after at least three digits (`1-800-FLOWERS`), as Google's
 * libphonenumber does; one or two letters among digits are `letter-in-number` (`O` written for `0`), letters
 * without a number are `not-a-number`.
 */
export const read = (input: string): Written | MsisdnProblem => {
  const text = input.trim()
  return text === "" ? "empty" : readPlain(text) ?? readAny(text)
}

/** {@link read} of trimmed text that is not empty, whatever its form. */
export const readAny = (trimmed: string): Written | MsisdnProblem => {
  // What is inside the wrapping (an unmatched group is replaced by nothing).
  let text = trimmed.replace(wrapping, "$1").trim()
  if (scientific.test(text)) return "scientific-notation"
  if (decimal.test(text)) return "not-a-number"
  const after = wordAfter.exec(text)?.index ?? -1
  if (after > 0 && text.slice(0, after).replace(/\P{Nd}/gu, "").length >= 8) return "not-a-number"
  // An international prefix written with its tilde (wait for the dial tone), as the numbering metadata writes the
  // preferred ones: `8~10` (RU, BY, KZ, TJ, TM), `0~0` (UA).
  text = text.replace(/^(?:8\s*~\s*10|0\s*~\s*0)/, (prefix) => prefix.replace(/[\s~]/g, ""))
  const ext = extension.exec(text)
  if (ext !== null) text = ext[1] ?? ""
  let digits = ""
  let letters = ""
  let letterCount = 0
  let digitsBeforeLetters = 0
  let plus = false
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0
    const value = valueOf(code)
    if (value >= 0) {
      digits += value
      letters += value
      if (letterCount === 0) digitsBeforeLetters++
    } else if ((code === 43 || code === 0xff0b) && !plus && digits === "" && letterCount === 0) plus = true
    else if (separator.test(char)) continue
    else {
      const letter = letterValue(code)
      if (letter === undefined) return "not-a-number"
      letters += letter
      letterCount++
    }
  }
  if (letterCount > 0) {
    if (digits === "") return "not-a-number"
    if (letterCount < 3) return "letter-in-number"
    if (digitsBeforeLetters < 3) return "not-a-number"
  }
  const number = letterCount > 0 ? letters : digits
  if (number === "") return plus ? "too-short" : "empty"
  if (number.length > maxDigits) return "too-long"
  const repairs: Array<Repair> = []
  if (ext !== null) repairs.push("extension-dropped")
  if (letterCount > 0) repairs.push("letters-converted")
  return { digits: number, plus, repairs }
}
