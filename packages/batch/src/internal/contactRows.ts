/**
 * One record of a contact file read into an import candidate, or the reason it is refused: the number
 * normalised (with the row's country or the default one), names trimmed, tags split and added to.
 */
// Subpaths, not the package index: the import's worker thread loads this module, and loads no more than it needs.
import type { ContactBook, Errors } from "@smsbook/core"
import * as Contact from "@smsbook/core/Contact"
import * as Country from "@smsbook/core/Country"
import * as Msisdn from "@smsbook/core/Msisdn"
import * as Columns from "./csv/columns.ts"
import * as CleanText from "./cleanText.ts"
import * as PhoneCells from "./phoneCells.ts"
import { cell, countryCell, firstCell, perFile } from "./rowCells.ts"

/** Why a row is refused besides its number's problems. */
export const rowReasons = [
  "missing-msisdn", "too-many-fields", "bad-encoding", "tag-too-long", "too-many-tags", "name-too-long", "invalid-monitoring"
] as const

/** Why a row is refused: a {@link Msisdn} problem (except `empty`, which is `missing-msisdn`) or a row problem. */
export type Reason = Exclude<Errors.MsisdnProblem, "empty"> | (typeof rowReasons)[number]

/**
 * What an accepted row went through: the number's notes, a label written with the number left out, a number taken
 * from a fallback phone column or from a cell holding several (`phoneCells.ts`), control characters (NUL, escapes, …) in its names or tags replaced by
 * spaces, and a consent column that does not say the person agreed to be texted (`Accepts SMS Marketing` = `no`): the
 * contact is created INVITED, never in a group send until confirmed (one the book holds keeps its status).
 */
export const notes = [
  ...Msisdn.notes, "label-dropped", "phone-from-fallback-column", "first-of-several", "control-characters-replaced",
  "no-sms-consent"
] as const
export type Note = (typeof notes)[number]

export type Read =
  | {
    readonly _tag: "Candidate"
    readonly candidate: ContactBook.Candidate
    readonly rule: Msisdn.Rule
    readonly notes: ReadonlyArray<Note>
    /** The row's status cell says the number opted out (an export of another book): the import opts it out. */
    readonly optOut: boolean
  }
  | {
    readonly _tag: "Reject"
    readonly reason: Reason
    readonly message: string
    /** The row's number, where its status says it opted out though the row is refused for something else: opted out. */
    readonly optOut?: Msisdn.Msisdn
  }
  | { readonly _tag: "Blank" }

export interface Context {
  readonly columns: Columns.Columns
  /** The country of national numbers when the row has no country of its own (as {@link Country.lookup} reads it). */
  readonly defaultCountry: string | undefined
  /** Tags added to every row's own. */
  readonly tags: ReadonlyArray<string>
  /**
   * Only numbers are read (a suppression list, its columns matched to the number's and the country's alone): a cell
   * that is not valid text refuses the row only where the number or its country is read, not in a column nothing reads.
   */
  readonly numbersOnly?: boolean
}

const blank: Read = { _tag: "Blank" }

/**
 * Status cells that say a number opted out (as `Columns.key` reduces them): the interface's CANCELLED, and its kin,
 * the keyword people text to leave (`STOP`, which `receive` reads as an opt-out) and do-not-contact marks.
 */
const optOutStatuses: ReadonlySet<string> = new Set([
  "cancelled", "canceled", "cancel", "unsubscribed", "unsubscribe", "optedout", "optout", "stop", "stopped",
  "dnc", "donotcontact", "donottext", "donotsms"
])

/** Whether a status cell says its number opted out: `CANCELLED` as `contacts export` writes it, `Unsubscribed`, `STOP`. */
export const isOptOut = (status: string): boolean => optOutStatuses.has(Columns.key(status))

/** Status cells a contact the import creates starts in, where not SUBSCRIBED (as `Columns.key` reduces them). */
const startingStatuses: ReadonlyMap<string, ContactBook.StartingStatus> = new Map([
  ["invited", "INVITED"],
  ["confirmed", "CONFIRMED"]
])

/** Consent cells that say the person agreed to be texted (as `Columns.key` reduces them); any other but a blank does not. */
const consented: ReadonlySet<string> = new Set([
  "yes", "y", "true", "1", "subscribed", "optedin", "optin", "accepted", "granted", "confirmed", "ja", "oui", "si", "sim", "da"
])

/** Monitoring cells, in any case: `true`/`false` as `contacts export` writes them, and their common kin. */
const flags: ReadonlyMap<string, boolean> = new Map([
  ["true", true], ["yes", true], ["y", true], ["1", true],
  ["false", false], ["no", false], ["n", false], ["0", false]
])

/**
 * A refused row. `optingOut`: the row's number as read, where its status says it opted out and the row is refused for
 * something else (a name not valid text, a tag too long): the opt-out binds the number, so it is kept all the same.
 */
const reject = (reason: Reason, message: string, optingOut?: Msisdn.Normalized | Errors.MsisdnProblem): Read =>
  optingOut === undefined || typeof optingOut === "string"
    ? { _tag: "Reject", reason, message }
    : { _tag: "Reject", reason, message: `${message}; its opt-out is kept all the same (the number is suppressed)`, optOut: optingOut.msisdn }

/** Google Contacts' own groups in its `Group Membership` column: no group a person made. */
const googleGroups: ReadonlySet<string> = new Set(["* mycontacts", "* starred"])

/**
 * Tags of a cell: split on `,` `;` `|` and Google Contacts' ` ::: `, trimmed, quotes around a tag taken off (Mailchimp
 * writes `"VIP","Customer"`), blanks dropped, and Google's own groups but in `contacts export`'s own file (`exported`),
 * where a tag `* starred` is one a book holds.
 */
export const splitTags = (text: string, exported = false): ReadonlyArray<string> => {
  if (text === "") return []
  const out: Array<string> = []
  for (const part of text.split(/[,;|]| ::: /)) {
    const trimmed = part.trim()
    // Most tags are not quoted: a pattern on every tag cost the import's reading 6 % of its time.
    const tag = trimmed.length > 1 && trimmed.charCodeAt(0) === 34 && trimmed.endsWith('"') ? trimmed.slice(1, -1).trim() : trimmed
    if (tag !== "" && (exported || !googleGroups.has(tag.toLowerCase()))) out.push(tag)
  }
  return out
}

/** Whether a row repeats the header cell for cell (files joined one after the other). */
const isHeaderAgain = (fields: ReadonlyArray<string>, header: ReadonlyArray<string>): boolean =>
  header.every((name, at) => (fields[at] ?? "").trim() === name.trim())

const isBlankRow = (fields: ReadonlyArray<string>): boolean => {
  for (const field of fields) if (field.trim() !== "") return false
  return true
}

const hasReplacementCharacter = (fields: ReadonlyArray<string>): boolean => {
  for (const field of fields) if (field.indexOf("\uFFFD") !== -1) return true
  return false
}

/** The cells a row's number is read from: its phone columns and its country columns. */
const numberCells = (fields: ReadonlyArray<string>, columns: Columns.Columns): ReadonlyArray<string> =>
  [columns.index.msisdn, columns.index.country, ...columns.fallbacks, ...columns.countryFallbacks]
    .map((at) => at === undefined ? "" : fields[at] ?? "")

/** Whether a number is written with an international prefix (`+` or `00`, after an optional `tel:`). */
const isWrittenInternationally = (number: string): boolean => /^(?:\+|00)/.test(number.replace(/[^0-9+]/g, ""))

const problemMessages: { readonly [P in Exclude<Errors.MsisdnProblem, "empty">]: string } = {
  "scientific-notation": "a spreadsheet showed the number in scientific notation and lost its last digits: export the column as text",
  "lost-leading-zero": "a spreadsheet dropped the number's leading 0: export the column as text, or write it with +country code",
  "unknown-country": "no country for this number: write it with +country code, give a country column, or --default-country",
  "invalid": "not an assigned number range",
  "too-short": "too few digits for a phone number of its country",
  "too-long": "too many digits for a phone number of its country",
  "not-a-number": "not a phone number (other characters, or words without a number)",
  "letter-in-number": "a letter among the digits (O written for 0?): one or two letters are no vanity number",
  "bad-country": "the country cell is not a country (an ISO code, a name or a calling code) and the number has no +country code"
}

/** `unknown-country` of a number written with `+` or `00`: its country code is the problem, not a missing one. */
const unknownCallingCode = "no country has the calling code this number starts with: check the digits after + or 00"

/** Header names (as `Columns.key` reduces them) of a number column of the interface's own shape, and of its calling code. */
const msisdnHeaders: ReadonlySet<string> = new Set(["msisdn", "misdn", Columns.key(Columns.suppressedColumn)])
const callingCodeHeader = "countrycode"

/**
 * Whether the file's number and country columns are the interface's `msisdn` and `country_code` (as `contacts export`
 * and `suppressions export` write them): an MSISDN is the calling code and the national number, so digits that begin
 * with the row's calling code are read as written internationally. Read as the digits of an Italian row, the exported
 * landline `3903005679` (+39 0300 5679) came back as the mobile +39 390 300 5679, its opt-out with it.
 */
const isInterfaceShape = perFile(({ header, index }) =>
  index.msisdn !== undefined && index.country !== undefined &&
  msisdnHeaders.has(Columns.key(header[index.msisdn] ?? "")) && Columns.key(header[index.country] ?? "") === callingCodeHeader
)

/**
 * The bounds of a row of a `contacts export`: it carries what its book held, which several rows or imports may have
 * given more tags than one write gives (`Contact.maxTags`), or an older name longer than one holds now; a moved book
 * keeps such a contact. Bounded all the same, a few times over: a file that only looks like an export must not plant
 * contacts no page of a list can hold.
 */
const exportBounds = { maxTags: 5 * Contact.maxTags, maxName: 4 * Contact.maxNameLength } as const
const writeBounds = { maxTags: Contact.maxTags, maxName: Contact.maxNameLength } as const

/** Whether the file is a `contacts export` (`Columns.isExport`). */
const isExported = perFile(({ header }) => Columns.isExport(header))

/**
 * `number` as an MSISDN written internationally (`+` and its digits), where its digits (in a spreadsheet's text form
 * or with separators too) begin with the calling code in `country`; else `undefined` (interface shape).
 */
const asMsisdn = (number: string, country: string): string | undefined => {
  const code = /^\+?([1-9][0-9]{0,2})$/.exec(country)?.[1]
  const digits = number.replace(/^(?:'+|="(.*)"$)/, "$1").replace(/[\s\-().\/]/g, "")
  return code !== undefined && /^[0-9]+$/.test(digits) && digits.startsWith(code) ? `+${digits}` : undefined
}

/**
 * The row's number read with its country (the row's country cell, else the default): from the number's column, else
 * from the first fallback phone column that holds a valid number (`fromFallback`); the primary column's problem when
 * none does. Country cells are free text (names and alpha-3 codes too, read by `Country.lookup` like
 * `--default-country`); the first country column with a cell in this row is the row's.
 */
const readNumber = (fields: ReadonlyArray<string>, context: Context, number: string, primary: string) => {
  const { fallbacks, countryFallbacks, index } = context.columns
  const country = countryCell(fields, index.country)
  const options: Msisdn.Options = {
    country: country !== "" ? country : firstCell(fields, countryFallbacks, countryCell),
    defaultCountry: context.defaultCountry,
    readCountry: Country.lookup
  }
  // An MSISDN is read as one first; where its digits make no valid number so (a national number in a column named
  // `msisdn`), the policy reads them as every other file's.
  const msisdn = number === primary && isInterfaceShape(context.columns) ? asMsisdn(number, country) : undefined
  const international = msisdn === undefined ? undefined : Msisdn.reading(msisdn, options)
  if (international !== undefined && typeof international !== "string") {
    return { normalized: international, fromFallback: false, several: false, labelled: false }
  }
  const one = context.numbersOnly === true
  const read = PhoneCells.readCell(number, options, one)
  if (typeof read.reading !== "string") return { normalized: read.reading, fromFallback: number !== primary, several: read.several, labelled: read.labelled }
  for (const at of fallbacks) {
    const other = cell(fields, at)
    if (other === "" || other === number) continue
    const fallback = PhoneCells.readCell(other, options, one)
    if (typeof fallback.reading !== "string") {
      return { normalized: fallback.reading, fromFallback: true, several: fallback.several, labelled: fallback.labelled }
    }
  }
  return { normalized: read.reading, fromFallback: number !== primary, several: false, labelled: false }
}

/**
 * Reads one record. A row whose every cell is blank is `Blank` (a spacer line, not a contact), as is the header
 * repeated (files joined one after the other). Otherwise it is a
 * `Candidate` or a `Reject` with a stable reason: `too-many-fields` (non-blank cells past the header's columns),
 * `bad-encoding` (a byte sequence that is not text in the file's encoding), `tag-too-long`, `too-many-tags`,
 * `name-too-long` (the bounds of `Contact`, but in an export), `invalid-monitoring` (a monitoring cell that is no yes
 * or no), `missing-msisdn`, or the number's problem from {@link Msisdn.reading} (`bad-country` among them); its message says what to do about this number
 * (an `unknown-country` written with `+` or `00` has a wrong calling code, not a missing one). The row's country
 * cell (code, name or calling code) overrides the default country. Where the number's column is empty or invalid,
 * the fallback phone columns are read in order; the primary column's problem is reported when none is valid.
 */
export const read = (fields: ReadonlyArray<string>, given: Context): Read => {
  const mobileFirst = PhoneCells.labelledMobile(fields, given.columns)
  const context = mobileFirst === given.columns ? given : { ...given, columns: mobileFirst }
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
  const primary = cell(fields, index.msisdn)
  const number = primary !== "" ? primary : firstCell(fields, context.columns.fallbacks)
  if (number === "") {
    return isBlankRow(fields) ? blank : reject("missing-msisdn", "no phone number in this row")
  }
  // The header again (exports joined one after the other) is no contact: skipped as a blank line is.
  if (number === header[index.msisdn ?? -1]?.trim() && isHeaderAgain(fields, header)) return blank
  const statusCell = index.status === undefined ? "" : cell(fields, index.status)
  const optsOut = statusCell !== "" && isOptOut(statusCell)
  if (hasReplacementCharacter(context.numbersOnly === true ? numberCells(fields, context.columns) : fields)) {
    return reject(
      "bad-encoding",
      "a cell is not valid text in the file's encoding: give the right one with --encoding",
      optsOut ? readNumber(fields, context, number, primary).normalized : undefined
    )
  }
  const { fromFallback, normalized, several, labelled } = readNumber(fields, context, number, primary)
  if (typeof normalized === "string") {
    const problem = normalized
    if (problem === "empty") return reject("missing-msisdn", "no phone number in this row")
    const message = problem === "unknown-country" && isWrittenInternationally(number)
      ? unknownCallingCode
      : problemMessages[problem]
    return reject(problem, `${JSON.stringify(number)}: ${message}`)
  }
  const { country_code, msisdn, phone_number, rule } = normalized
  const own = splitTags(cell(fields, index.tags), isExported(context.columns))
  // Every store indexes tags, and bounds what it can: a row with a longer one is refused, not the whole file.
  const longTag = own.find(Contact.isTooLong)
  if (longTag !== undefined) {
    return reject("tag-too-long", `a tag of ${longTag.length} UTF-16 units (an emoji counts 2): a tag holds at most ${Contact.maxTagLength}`, optsOut ? normalized : undefined)
  }
  const tags = context.tags.length === 0 ? own : [...own, ...context.tags]
  const first = cell(fields, index.first_name)
  const first_name = first === "" && index.first_name === undefined ? cell(fields, index.name) : first
  const last_name = cell(fields, index.last_name)
  const { maxName, maxTags } = isExported(context.columns) ? exportBounds : writeBounds
  const tagCount = tags.length > maxTags ? Contact.normalizeTags(tags).length : 0
  if (tagCount > maxTags) {
    return reject("too-many-tags", `${tagCount} tags: a row gives at most ${maxTags}`, optsOut ? normalized : undefined)
  }
  const long = first_name.length > maxName ? first_name : last_name.length > maxName ? last_name : undefined
  if (long !== undefined) {
    return reject("name-too-long", `a name of ${long.length} UTF-16 units (an emoji counts 2): a name holds at most ${maxName}`, optsOut ? normalized : undefined)
  }
  const monitoringCell = index.monitoring === undefined ? "" : cell(fields, index.monitoring)
  const monitoring = monitoringCell === "" ? undefined : flags.get(monitoringCell.toLowerCase())
  if (monitoringCell !== "" && monitoring === undefined) {
    return reject(
      "invalid-monitoring",
      `monitoring ${JSON.stringify(monitoringCell)}: write true or false (yes/no, 1/0 read too)`,
      optsOut ? normalized : undefined
    )
  }
  const consentCell = index.sms_consent === undefined ? "" : cell(fields, index.sms_consent)
  const noConsent = consentCell !== "" && !consented.has(Columns.key(consentCell))
  const stated = statusCell === "" || optsOut ? undefined : startingStatuses.get(Columns.key(statusCell))
  const status = stated === undefined && noConsent && !optsOut ? "INVITED" : stated
  const cleaned = [index.first_name, index.last_name, index.name, index.tags].some((at) =>
    at !== undefined && CleanText.countControls(fields[at] ?? "") > 0
  )
  const rowNotes: ReadonlyArray<Note> = fromFallback || several || labelled || cleaned || noConsent
    ? [
      ...normalized.notes,
      ...(labelled ? ["label-dropped" as const] : []),
      ...(fromFallback ? ["phone-from-fallback-column" as const] : []),
      ...(several ? ["first-of-several" as const] : []),
      ...(cleaned ? ["control-characters-replaced" as const] : []),
      ...(noConsent ? ["no-sms-consent" as const] : [])
    ]
    : normalized.notes
  return {
    _tag: "Candidate",
    rule,
    notes: rowNotes,
    optOut: optsOut,
    // Two literals, no spread: this runs for every row of a file, and most files carry no state.
    candidate: status === undefined && monitoring === undefined
      ? { msisdn, country_code, phone_number, first_name, last_name, tags }
      : { msisdn, country_code, phone_number, first_name, last_name, tags, status, monitoring }
  }
}
