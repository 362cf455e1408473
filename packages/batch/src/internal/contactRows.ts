/**
 * One record of a contact file read into an import candidate, or the reason it is refused: the number
 * normalised (with the row's country or the default one), names trimmed, tags split and added to.
 */
import { type ContactBook, type Errors, Msisdn } from "@smsbook/core"
import { Result } from "effect"
import type * as Columns from "./csv/columns.ts"
import * as CleanText from "./cleanText.ts"
import * as spreadsheet from "./csv/spreadsheet.ts"

/** Why a row is refused: a {@link Msisdn} problem (except `empty`, which is `missing-msisdn`) or a row problem. */
export type Reason =
  | Exclude<Errors.MsisdnProblem, "empty">
  | "missing-msisdn"
  | "bad-country"
  | "too-many-fields"
  | "bad-encoding"

export type Read =
  | { readonly _tag: "Candidate"; readonly candidate: ContactBook.Candidate; readonly rule: Msisdn.Rule }
  | { readonly _tag: "Reject"; readonly reason: Reason; readonly message: string }
  | { readonly _tag: "Blank" }

export interface Context {
  readonly columns: Columns.Columns
  /** The country of national numbers when the row has no country of its own (ISO code or calling code). */
  readonly defaultCountry: string | undefined
  /** Tags added to every row's own. */
  readonly tags: ReadonlyArray<string>
}

const blank: Read = { _tag: "Blank" }

const reject = (reason: Reason, message: string): Read => ({ _tag: "Reject", reason, message })

/**
 * The cell as the file meant it: a spreadsheet-safety quote taken off, then trimmed (candidates carry trimmed
 * names). The quote comes off before trimming, so a cell reads the same as its neutralised form in a rejects file.
 */
export const cell = (fields: ReadonlyArray<string>, index: number | undefined): string => {
  if (index === undefined) return ""
  const text = fields[index] ?? ""
  return CleanText.replaceControls(spreadsheet.restore(text)).trim()
}

/** Tags of a cell: split on `,` `;` `|`, trimmed, blanks dropped. */
export const splitTags = (text: string): ReadonlyArray<string> => {
  if (text === "") return []
  const out: Array<string> = []
  for (const part of text.split(/[,;|]/)) {
    const tag = part.trim()
    if (tag !== "") out.push(tag)
  }
  return out
}

const isBlankRow = (fields: ReadonlyArray<string>): boolean => {
  for (const field of fields) if (field.trim() !== "") return false
  return true
}

const hasReplacementCharacter = (fields: ReadonlyArray<string>): boolean => {
  for (const field of fields) if (field.indexOf("\uFFFD") !== -1) return true
  return false
}

/** Whether a number is written with an international prefix (`+` or `00`, after an optional `tel:`). */
const isWrittenInternationally = (number: string): boolean => /^(?:\+|00)/.test(number.replace(/[^0-9+]/g, ""))

const problemMessages: { readonly [P in Exclude<Errors.MsisdnProblem, "empty">]: string } = {
  "scientific-notation": "a spreadsheet showed the number in scientific notation and lost its last digits: export the column as text",
  "lost-leading-zero": "a spreadsheet dropped the number's leading 0: export the column as text, or write it with +country code",
  "unknown-country": "no country for this number: write it with +country code, give a country column, or --default-country",
  "invalid": "not an assigned number range",
  "too-short": "too few digits for a phone number of its country",
  "too-long": "too many digits for a phone number of its country",
  "not-a-number": "not a phone number (letters, an extension or other characters)"
}

/** `unknown-country` of a number written with `+` or `00`: its country code is the problem, not a missing one. */
const unknownCallingCode = "no country has the calling code this number starts with: check the digits after + or 00"

/**
 * Reads one record. A row whose every cell is blank is `Blank` (a spacer line, not a contact). Otherwise it is a
 * `Candidate` or a `Reject` with a stable reason: `too-many-fields` (non-blank cells past the header's columns),
 * `bad-encoding` (a byte sequence that is not text in the file's encoding), `missing-msisdn`, `bad-country`, or the
 * number's problem from {@link Msisdn.normalize}; its message says what to do about this number (an
 * `unknown-country` written with `+` or `00` has a wrong calling code, not a missing one). The row's country cell
 * (ISO code or calling code) overrides the default country; it only matters for numbers written nationally.
 */
export const read = (fields: ReadonlyArray<string>, context: Context): Read => {
  const { header, index } = context.columns
  if (fields.length > header.length) {
    for (let i = header.length; i < fields.length; i++) {
      if ((fields[i] ?? "").trim() !== "") {
        return isBlankRow(fields) ? blank : reject(
          "too-many-fields",
          `${fields.length} fields where the header has ${header.length}: a delimiter inside an unquoted cell?`
        )
      }
    }
  }
  const number = cell(fields, index.msisdn)
  if (number === "") {
    return isBlankRow(fields) ? blank : reject("missing-msisdn", "no phone number in this row")
  }
  if (hasReplacementCharacter(fields)) {
    return reject("bad-encoding", "a cell is not valid text in the file's encoding: give the right one with --encoding")
  }
  const country = cell(fields, index.country)
  if (country !== "" && Result.isFailure(Msisdn.callingCode(country))) {
    return reject("bad-country", `country ${JSON.stringify(country)} is neither an ISO 3166 code (GB) nor a calling code (44)`)
  }
  const normalized = Msisdn.normalize(number, { defaultCountry: country === "" ? context.defaultCountry : country })
  if (Result.isFailure(normalized)) {
    const problem = normalized.failure.problem
    if (problem === "empty") return reject("missing-msisdn", "no phone number in this row")
    const message = problem === "unknown-country" && isWrittenInternationally(number)
      ? unknownCallingCode
      : problemMessages[problem]
    return reject(problem, `${JSON.stringify(number)}: ${message}`)
  }
  const { country_code, msisdn, phone_number, rule } = normalized.success
  const own = splitTags(cell(fields, index.tags))
  const first = cell(fields, index.first_name)
  return {
    _tag: "Candidate",
    rule,
    candidate: {
      msisdn,
      country_code,
      phone_number,
      first_name: first === "" && index.first_name === undefined ? cell(fields, index.name) : first,
      last_name: cell(fields, index.last_name),
      tags: context.tags.length === 0 ? own : [...own, ...context.tags]
    }
  }
}
