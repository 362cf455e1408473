/**
 * Which column of a contact file holds which field: header names matched by their common spellings in any case,
 * spacing, punctuation or accents, `--map "Column=field"` overrides, and the columns left unused.
 */
import { InvalidField, InvalidParameter } from "@smsbook/core/Errors"
import * as Result from "effect/Result"
import { aliases } from "./headerAliases.ts"

/**
 * The fields an import reads. `name` is a whole name: it becomes the first name when the file has no first- or
 * last-name column (names are never split: where one ends is guesswork), and is unused otherwise. `status` and
 * `monitoring` are a contact's state (`contactRows.ts`): a status that says a number opted out opts it out, and both are
 * the starting state of a contact the import creates. Other programs' `Status` columns mean other things (a booking's,
 * an order's, a message's `Cancelled`), so the two are read on their own only in an smsbook export (the file has its
 * `msisdn`, `status` and `monitoring` columns); elsewhere only when `--map` names them. `sms_consent` is whether the
 * person agreed to be texted (`Accepts SMS Marketing`): a contact whose cell says no is created INVITED.
 */
export const fields = ["msisdn", "first_name", "last_name", "name", "country", "tags", "status", "monitoring", "sms_consent"] as const
export type Field = (typeof fields)[number]

/**
 * A header name reduced to what tells names apart: lower case, accents removed, only letters and digits
 * (`"Mobile Number"`, `"mobile_number"` and `"MOBILE-NUMBER"` are all `mobilenumber`; `"Prénom"` is `prenom`).
 */
export const key = (name: string): string =>
  name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")

// Aliases are written as people write them where `key` would change them (accents, spaces, Hangul's syllables).
const byKey: ReadonlyMap<string, Field> = new Map(
  fields.flatMap((field) => aliases[field].map((alias) => [key(alias), field] as const))
)

/**
 * Country aliases that may name a state or province column instead (`ISO`, `Land`). `Region` is no country column at
 * all: Mailchimp's `REGION` holds a US state's code (`IN`, `CO`, `DE`), which read as India, Colombia and Germany; its
 * `CC` is the country.
 */
const mayBeState: ReadonlySet<string> = new Set(["iso", "land"])

/** Header words that say a column holds mobile numbers: preferred for the number, an SMS reaches only those. */
const mobileWords = /mob|cell|celular|(?<!auto)movil|gsm|msisdn|handy|portable|sms|whatsapp|iphone|моб/

/**
 * The same in other scripts (Japanese and Chinese 携帯, 手机, 手機, 移动电话, 行動電話; Korean 휴대, 핸드폰; Arabic جوال,
 * موبايل), where a bare 電話, 电话, 전화 or هاتف beside them is often a landline. Compared as {@link key} makes them.
 */
const mobilePhrases = ["携帯", "手机", "手機", "移动电话", "行動電話", "휴대", "핸드폰", "جوال", "موبايل"].map(key)

/** Whether a header names a mobile-number column (`Mobile Phone`, `Cell`, `GSM`, `MSISDN`, `携帯電話`). */
export const isMobile = (name: string): boolean => {
  const k = key(name)
  return mobileWords.test(k) || mobilePhrases.some((phrase) => k.includes(phrase))
}

/**
 * A header's words: accents removed, lower case, split at what is not a letter or digit and at camelCase humps, and a
 * word run together from the words below split into them (Salesforce's `MAILINGCOUNTRY`, `ASSISTANTPHONE`).
 */
const wordsOf = (name: string): ReadonlyArray<string> =>
  name.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2").normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
    .split(/[^\p{L}\p{N}]+/u).filter((word) => word !== "").flatMap(compound)

const countryWords: ReadonlySet<string> = new Set([
  "country", "countries", "paese", "страна", "国家", "ulke", "kraj", "negara", "land", "pays", "pais"
])
/**
 * Words beside a country word that make it another country than where the contact's phone is (`Destination Country`,
 * `Country of Origin`, `IP Country`, `Birth Country`), or no country at all (`Country Manager`, `Land Line`).
 */
const notWhereTheyLive: ReadonlySet<string> = new Set([
  "ip", "destination", "origin", "birth", "event", "order", "manager", "nationality", "citizenship", "passport", "visa",
  "travel", "target", "issuing", "line", "side"
])
const phoneWords: ReadonlySet<string> = new Set([
  "phone", "phones", "telephone", "tel", "mobile", "mobil", "mobiel", "mobiele", "mobiltelefon", "cell", "cellphone",
  "cellular", "celular", "movil", "telefon", "telefone", "telefono", "telefoon", "msisdn", "gsm", "whatsapp", "handy",
  "телефон"
])
/**
 * Words of a phone number's companion columns (`Phone 1 - Type`, `Mobile Opt-in`, `Cell Phone Carrier`, `Cell ID`), and
 * of numbers that are not the contact's own to text (`Assistant's Phone`, `Spouse Mobile`, `Parent Cell Phone`,
 * `Emergency Contact Phone`, `TTY/TDD Phone`, `Company Main Phone`).
 */
const phoneCompanions: ReadonlySet<string> = new Set([
  "type", "label", "kind", "ext", "extension", "code", "status", "verified", "verification", "opt", "optin", "optout",
  "consent", "carrier", "operator", "network", "provider", "format", "valid", "id", "date", "marketing",
  "assistant", "assistants", "asst", "assistent", "assistente", "asistente", "ayudante", "помощника", "secretary",
  "spouse", "partner", "husband", "wife", "parent", "parents", "guardian", "mother", "father", "mothers", "fathers",
  "manager", "boss", "relative", "kin", "referrer", "reference", "emergency", "tty", "tdd", "horbehinderte", "car", "automovil",
  "radio", "pager", "fax", "switchboard", "firma"
])

/**
 * Whether a label written beside a number in its cell says the number is not the contact's own to text (`Fax`,
 * `Assistant`, `Pager`), by the words that say so of a phone column.
 */
export const isSomeoneElses = (label: string): boolean =>
  wordsOf(label).some((word) => phoneCompanions.has(word) && !["type", "label", "kind", "code", "id"].includes(word))

/** Words of an address, a company or a code, beside the country and phone words they qualify. */
const qualifierWords = [
  "mailing", "billing", "shipping", "home", "business", "work", "other", "primary", "default", "address", "residence",
  "contact", "personal", "private", "office", "main", "number", "no", "code", "name", "iso", "dial", "dialing",
  "calling", "lead", "delivery", "account", "company", "alpha", "of"
]

/** Every word {@link byWords} knows, for {@link compound}; built on first use. */
let vocabulary: ReadonlySet<string> | undefined

/**
 * A word run together from known words, split into them (`mailingcountrycode` → mailing, country, code); any other
 * word whole. Only a complete split counts, so `phonetic` stays one word (no `phone`).
 */
const compound = (word: string): ReadonlyArray<string> => {
  vocabulary ??= new Set([...countryWords, ...notWhereTheyLive, ...phoneWords, ...phoneCompanions, ...companyWords, ...qualifierWords])
  if (word.length < 6 || vocabulary.has(word)) return [word]
  // split[end]: the words of `word.slice(0, end)`, longest last word first.
  const split: Array<ReadonlyArray<string> | undefined> = [[]]
  for (let end = 1; end <= word.length; end++) {
    for (let start = 0; start < end; start++) {
      const before = split[start]
      if (before !== undefined && vocabulary.has(word.slice(start, end))) {
        split[end] = [...before, word.slice(start, end)]
        break
      }
    }
  }
  return split[word.length] ?? [word]
}

/**
 * Words for a company in the languages of address books' exports: beside a phone word that is not a mobile, the
 * company's switchboard (Outlook's `Company Main Phone` is French `Téléphone société`, Spanish `Teléfono de la
 * compañía`), not the contact's own number.
 */
const companyWords: ReadonlySet<string> = new Set(["societe", "societa", "compania", "empresa", "bedrijf", "azienda", "unternehmen"])

/**
 * The field a header means by its words, where no spelling names it whole (`Mailing Country`, `Country ISO Code`,
 * `Primary Phone Number`, `Tel. domicile`): a country column left unread made every national number one of the
 * default country's (an independent review's `Mailing Country` stored 55,836 numbers as numbers of the wrong country,
 * exit 0). Whole words only (`Cancellation Date` holds no `cell`, `Phonetic Name` no `phone`); a country word beside
 * a word that makes it another country than where the contact lives (`Destination Country`, `IP Country`) or none
 * (`Country Manager`) is no country column, nor one beside a phone word (`Mobile Country Code`); a phone word beside a
 * word of its companions is not the contact's number (`Phone 1 - Type`, `Assistant's Phone`, `Spouse Mobile`).
 */
const byWords = (name: string): Field | undefined => {
  const words = wordsOf(name)
  const phone = words.some((word) => phoneWords.has(word))
  if (words.some((word) => countryWords.has(word))) {
    return !phone && !words.some((word) => notWhereTheyLive.has(word)) ? "country" : undefined
  }
  // A company's main line is its switchboard; a company mobile is the contact's own.
  const switchboard = (words.includes("company") && words.includes("main")) ||
    (words.some((word) => companyWords.has(word)) && !isMobile(name))
  return phone && !switchboard && !words.some((word) => phoneCompanions.has(word)) ? "msisdn" : undefined
}

/** Spellings too short to name a field with a number after them (`Last 4` is a card's last digits, not a last name). */
const bareWords: ReadonlySet<string> = new Set(["last", "first", "number"])

/** The field a header names by one of its common spellings, a trailing number aside (`Phone 1`, `Tag 2`, `Country 1`). */
const spelt = (name: string): Field | undefined => {
  const k = key(name)
  const unnumbered = k.replace(/\d+$/, "")
  return byKey.get(k) ?? (bareWords.has(unnumbered) ? undefined : byKey.get(unnumbered))
}

/** The field a header name means: one of the common spellings, else by its words. */
export const fieldOf = (name: string): Field | undefined => spelt(name) ?? byWords(name)

/**
 * The number column of `suppressions export`: a name no contact file uses, so {@link match} tells a suppression list
 * from a contact file (imported as contacts, it would make a contact of every number that opted out).
 */
export const suppressedColumn = "suppressed_msisdn"

/** Whether a header is `contacts export`'s own: its number, status and monitoring columns (a booking file may have the last two). */
export const isExport = (header: ReadonlyArray<string>): boolean =>
  ["msisdn", "status", "monitoring"].every((column) => header.some((name) => key(name) === column))

/** The three leading columns of a rejects file; re-importing one ignores them silently. */
export const rejectsColumns = ["line", "reason", "message"] as const

/** Where each field is in a record (column index), and the columns nothing reads. */
export interface Columns {
  readonly index: { readonly [F in Field]?: number }
  /**
   * Further phone-number columns, in file order, read where the number's column is empty or holds no valid number.
   * The number's column is the first whose header says mobile, cell, GSM or MSISDN, else the first phone column.
   */
  readonly fallbacks: ReadonlyArray<number>
  /**
   * Further country columns, in file order, read where the country's column is blank: an address book's export has
   * one per address (Outlook's `Business Country/Region` before `Home Country/Region`), most of them blank.
   */
  readonly countryFallbacks: ReadonlyArray<number>
  /** Header names of the columns that are not read, each once, in file order. */
  readonly unknown: ReadonlyArray<string>
  /** The header, as it was read: the rejects file repeats it. */
  readonly header: ReadonlyArray<string>
}

const ignore = new Set(["ignore", "skip", "none", "-"])

/** A `--map` value: `Column Name=field` (field in any of its spellings, or `ignore`). */
export const parseMapping = (
  text: string
): Result.Result<{ readonly column: string; readonly field: Field | "ignore" }, InvalidParameter> => {
  const at = text.lastIndexOf("=")
  const column = at < 0 ? "" : text.slice(0, at).trim()
  const target = at < 0 ? "" : text.slice(at + 1).trim()
  const bad = (reason: string) => Result.fail(new InvalidParameter({ parameter: "--map", value: text, reason }))
  if (column === "" || target === "") return bad("must be COLUMN=FIELD, e.g. \"Mobile Number=msisdn\"")
  if (ignore.has(target.toLowerCase())) return Result.succeed({ column, field: "ignore" })
  const field = fields.find((candidate) => key(candidate) === key(target)) ?? spelt(target)
  return field === undefined
    ? bad(`unknown field ${JSON.stringify(target)} (fields: ${fields.join(", ")}, or ignore)`)
    : Result.succeed({ column, field })
}

/** Columns a message names, at most, and characters of each: a header of hundreds of columns must not bury what to do. */
const namedColumns = 20
const namedLength = 40

/** `text` cut to `length` code points, marked with `…` where cut. */
const cut = (text: string, length: number): string => {
  const points = Array.from(text)
  return points.length <= length ? text : `${points.slice(0, length).join("")}…`
}

/** The header as a message names it: its first columns, each cut short, and how many more there are. */
const describe = (header: ReadonlyArray<string>) => {
  const named = header.slice(0, namedColumns).map((name) => JSON.stringify(cut(name, namedLength))).join(", ")
  return header.length > namedColumns ? `${named} and ${header.length - namedColumns} more` : named
}

/**
 * Whether a header is no header but text read in the wrong encoding (UTF-8 read as UTF-16 makes one cell of the first
 * megabyte) or bytes that are not text: a name hundreds of characters long, characters that could not be decoded, or
 * control characters no text file has (NUL…).
 */
const undecoded = (header: ReadonlyArray<string>): boolean =>
  header.some((name) => name.length > 200 || /[\uFFFD\u0000-\u0008\u000E-\u001F]/.test(name))

/**
 * Matches a header to the fields. `--map` entries name a column exactly, or failing that by {@link key}; every other
 * column is matched by its name; the first column that means a field takes it, later ones are unused, except
 * phone columns: the mobile one is the number's, the others its {@link Columns.fallbacks}; and country columns: the
 * first is the country's, the others its {@link Columns.countryFallbacks}. A file
 * without a phone-number column is refused, naming the columns it has. A mapping that names no column, or two
 * columns mapped to one field, is refused too: a typo in a nightly job must not go unnoticed. {@link suppressedColumn}
 * is a phone column of a `suppressionList`; in a contact file it refuses the file unless a mapping names it or the
 * number's column.
 */
export const match = (
  header: ReadonlyArray<string>,
  mappings: ReadonlyArray<string> = [],
  options: { readonly suppressionList?: boolean } = {}
): Result.Result<Columns, InvalidField | InvalidParameter> => {
  const assigned = new Map<number, Field | "ignore">()
  const taken = new Map<Field, string>()
  for (const text of mappings) {
    const parsed = parseMapping(text)
    if (Result.isFailure(parsed)) return Result.fail(parsed.failure)
    const { column, field } = parsed.success
    let at = header.findIndex((name) => name.trim() === column)
    if (at < 0) at = header.findIndex((name) => key(name) === key(column))
    if (at < 0) {
      return Result.fail(
        new InvalidParameter({ parameter: "--map", value: text, reason: `the file has no column ${JSON.stringify(column)} (columns: ${describe(header)})` })
      )
    }
    if (field !== "ignore") {
      const other = taken.get(field)
      if (other !== undefined) {
        return Result.fail(
          new InvalidParameter({ parameter: "--map", value: text, reason: `${field} is already mapped to ${JSON.stringify(other)}` })
        )
      }
      taken.set(field, column)
    }
    assigned.set(at, field)
  }
  const index: { [F in Field]?: number } = {}
  for (const [at, field] of assigned) if (field !== "ignore") index[field] = at
  // Columns nothing reads, by position: listed in file order at the end.
  const unread: Array<number> = []
  const phones: Array<number> = []
  const countries: Array<number> = []
  const mappedPhone = index.msisdn !== undefined
  const mappedCountry = index.country !== undefined
  const isSuppressed = (name: string) => key(name) === key(suppressedColumn)
  const listAt = header.findIndex(isSuppressed)
  if (options.suppressionList !== true && listAt >= 0 && !assigned.has(listAt) && !mappedPhone) {
    return Result.fail(
      new InvalidField({
        field: "header",
        value: header.join(","),
        reason: "this is a suppression list (suppressions export): load it with `smsbook suppressions import`; imported as " +
          `contacts, every number that opted out would become a contact (a contact file: name its number's column with --map "COLUMN=msisdn")`
      })
    )
  }
  const leadingRejectsColumns = rejectsColumns.every((name, i) => key(header[i] ?? "") === name)
  const exported = isExport(header)
  // Columns matched by their words, not a spelling: a column a spelling names comes first (Shopify's `Phone` before
  // its `Default Address Phone`, `Country/Region` before an `IP Country`).
  const worded = new Set<number>()
  header.forEach((name, at) => {
    if (assigned.has(at)) return
    if (leadingRejectsColumns && at < rejectsColumns.length) return
    const spelling = options.suppressionList === true && isSuppressed(name) ? "msisdn" : spelt(name)
    const field = spelling ?? byWords(name)
    if (spelling === undefined && field !== undefined) worded.add(at)
    if ((field === "status" || field === "monitoring") && !exported) unread.push(at)
    else if (field === "msisdn" && !mappedPhone) phones.push(at)
    else if (field === "country" && !mappedCountry) countries.push(at)
    else if (field !== undefined && index[field] === undefined) index[field] = at
    else unread.push(at)
  })
  // A mapped number column is the user's choice: other phone columns stay unread.
  if (mappedPhone) unread.push(...phones)
  // Mobiles first (an SMS reaches only those), then a spelling before words, then file order.
  const rank = (at: number) => (isMobile(header[at] ?? "") ? 0 : 2) + (worded.has(at) ? 1 : 0)
  const [preferred, ...fallbacks] = phones.toSorted((a, b) => rank(a) - rank(b) || a - b)
  if (preferred !== undefined) index.msisdn = preferred
  // Columns that surely hold a country come first and are the only fallbacks: `ISO` or `Land` may be a state or
  // province beside one (as `Region` = `GA`, Georgia the US state, is), and is read only where none is.
  const sure = [
    ...countries.filter((at) => !worded.has(at) && !mayBeState.has(key(header[at] ?? ""))),
    ...countries.filter((at) => worded.has(at))
  ]
  const [country, ...countryFallbacks] = sure.length > 0 ? sure : countries.slice(0, 1)
  if (country !== undefined) index.country = country
  unread.push(...countries.filter((at) => at !== country && !countryFallbacks.includes(at)))
  // One source of names: first and last name columns before a full name's, unless the full name is the one mapped.
  if (index.name !== undefined && (index.first_name !== undefined || index.last_name !== undefined)) {
    const mappedName = taken.has("name")
    const mappedParts = (["first_name", "last_name"] as const).filter((field) => taken.has(field))
    if (mappedName && mappedParts.length > 0) {
      return Result.fail(new InvalidParameter({
        parameter: "--map",
        value: `${taken.get("name")}=name`,
        reason: `the name is mapped twice, whole and as ${mappedParts.join(" and ")}: map one of them (a full name is read as the first name)`
      }))
    }
    const dropped = mappedName ? [index.first_name, index.last_name] : [index.name]
    for (const at of dropped) if (at !== undefined) unread.push(at)
    if (mappedName) {
      delete index.first_name
      delete index.last_name
    } else delete index.name
  }
  const unknown = unread.toSorted((a, b) => a - b).map((at) => {
    const name = header[at] ?? ""
    return name.trim() === "" ? `(column ${at + 1})` : name
  })
  if (index.msisdn === undefined) {
    return Result.fail(
      new InvalidField({
        field: "msisdn",
        value: cut(header.join(","), 200),
        reason: `no column of the header is a phone number (columns: ${describe(header)}); ` +
          (undecoded(header)
            ? "the header is not text as read: is the file in another encoding (give it with --encoding) or not CSV at all? Else "
            : "") +
          `name one "msisdn", "phone" or "mobile", or map it: --map "COLUMN=msisdn"`
      })
    )
  }
  return Result.succeed({ index, fallbacks, countryFallbacks, unknown: [...new Set(unknown)], header })
}
