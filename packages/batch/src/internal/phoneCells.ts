/**
 * Which phone cell of a row is its number, and what of the cell is: the column a label says is a mobile (Google
 * Contacts' `Phone 2 - Label`), the number of a cell holding several, a label written with the number left out.
 */
import type { Errors } from "@smsbook/core"
import * as Country from "@smsbook/core/Country"
import * as Msisdn from "@smsbook/core/Msisdn"
import * as Columns from "./csv/columns.ts"
import { cell, perFile } from "./rowCells.ts"

/**
 * The file's phone columns with a label column beside them (Google Contacts' `Phone 2 - Label` or `- Type` beside
 * `Phone 2 - Value`), and the file's columns with each of them as the number's, the others its fallbacks in order.
 */
const phoneLabels = perFile((columns) => {
  const labels = new Map<number, number>()
  for (const at of [columns.index.msisdn ?? -1, ...columns.fallbacks]) {
    const name = Columns.key(columns.header[at] ?? "")
    if (!name.endsWith("value")) continue
    const base = name.slice(0, -"value".length)
    const label = columns.header.findIndex((other) => Columns.key(other) === `${base}label` || Columns.key(other) === `${base}type`)
    if (label >= 0) labels.set(at, label)
  }
  const asNumber = new Map<number, Columns.Columns>()
  const numberAt = (at: number): Columns.Columns => {
    let reordered = asNumber.get(at)
    if (reordered === undefined) {
      const others = [columns.index.msisdn ?? -1, ...columns.fallbacks].filter((other) => other !== at && other >= 0)
      reordered = { ...columns, index: { ...columns.index, msisdn: at }, fallbacks: others }
      asNumber.set(at, reordered)
    }
    return reordered
  }
  return { labels, numberAt }
})

/**
 * The row's columns with the phone column its label cell says is a mobile as the number's (`Phone 2 - Label` =
 * `Mobile`), where the number's column is not labelled so: an SMS reaches only a mobile, and Google Contacts writes a
 * person's numbers in the order they were added (an independent review's `Home` landline was kept over the `Mobile`).
 */
export const labelledMobile = (fields: ReadonlyArray<string>, columns: Columns.Columns): Columns.Columns => {
  const { labels, numberAt } = phoneLabels(columns)
  if (labels.size === 0) return columns
  const says = (at: number | undefined) => {
    const label = at === undefined ? undefined : labels.get(at)
    return label !== undefined && cell(fields, at) !== "" && Columns.isMobile(cell(fields, label))
  }
  if (says(columns.index.msisdn)) return columns
  const mobile = columns.fallbacks.find(says)
  return mobile === undefined ? columns : numberAt(mobile)
}

/**
 * What may separate several numbers in one cell: Google Contacts' ` ::: `, `;`, `,`, `|`, `/`, ` or `, a space before a
 * `+` (a line break is a space by then: `cell` replaces control characters).
 */
const numberList = /\s*(?::::|[;,|/]|\s(?:or|oder|ou|o|of)\s|\s(?=[+＋]))\s*/i

/** Whether a cell may hold {@link numberList}: the same without the blanks around, tested on every row first. */
const mayList = /:::|[;,|/]|\s(?:or|oder|ou|o|of)\s|\s[+＋]/i

/**
 * The numbers of a cell that holds several (`+44 7400 333333 ::: +44 7400 444444`, `07400 123483 / 07900 654321`):
 * its parts where there are two or more and each has six digits or more; else `undefined`, one number whose `/` or
 * `,` belongs to it (`030/1234567`, `020 7946 0018, ext. 123`, `4,47E+11`). Read as one, two numbers made a third:
 * `030 1234 / 030 5678` + DE was stored as +49 30 1234 0305678.
 */
export const severalNumbers = (text: string): ReadonlyArray<string> | undefined => {
  if (!mayList.test(text)) return undefined
  const parts = text.split(numberList).filter((part) => part !== "")
  return parts.length > 1 && parts.every((part) => part.replace(/\P{Nd}/gu, "").length >= 6) ? parts : undefined
}

/** A part after the first that starts as a number does (`+`, a trunk `0`, a bracketed area code): a second number. */
const freshStart = /^[+＋(（0０]/

/** Words before a number in its cell (`Mob: 07400 123456`, `Tel. 030 1234567`); one letter only with its colon or dot. */
const leadingLabel = /^(\p{L}[\p{L}\s.'’]*\p{L}|\p{L}(?=[.:]))(?:[:.]\s*|\s+)(?=[+＋(（\p{Nd}])/u

/**
 * Words after a number, set apart by a space or a bracket (`0664 123456 home`, `030 1234567 (fax)`): three letters or
 * more (`0664 123456 O` is a look-alike of a digit), after eight digits or more (fewer are vanity letters: `+1 800
 * FLOWERS`).
 */
const trailingLabel = /[\s(（[]+(\p{L}[\p{L}\p{M}\s.'’]*)[)）\]]?\s*$/u

/** What a cell begins or ends with where it has a label: a letter, or the bracket or dot after one. */
const edgeOfLabel = /\p{L}|[.)）\]]/u

/** A number and the label written with it in its cell, where it has one. */
interface Part {
  readonly number: string
  readonly label: string | undefined
}

/**
 * The label of a number in its cell taken apart, where it is only a label: not a country (`UK: 07400 123456` with
 * another default read as that country's number), not the word of another's number (`Fax`); such a cell is read
 * whole, and refused for its letters.
 */
const labelled = (text: string): Part => {
  // A label is at an edge of the cell: most cells, digits at both ends, skip the two patterns.
  if (!edgeOfLabel.test(text.charAt(0) + text.charAt(text.length - 1))) return { number: text, label: undefined }
  const lead = leadingLabel.exec(text)
  const trail = lead === null ? trailingLabel.exec(text) : null
  const label = lead?.[1] ?? trail?.[1]?.trim()
  if (label === undefined) return { number: text, label: undefined }
  const number = lead !== null ? text.slice(lead[0].length) : text.slice(0, trail?.index ?? 0)
  const letters = label.replace(/[^\p{L}]/gu, "").length
  if (trail !== null && (letters < 3 || number.replace(/\P{Nd}/gu, "").length < 8)) return { number: text, label: undefined }
  const country = label.split(/[\s.'’]+/).some((word) => word !== "" && Country.lookup(word) !== undefined) || Country.lookup(label) !== undefined
  return country || Columns.isSomeoneElses(label) ? { number: text, label: undefined } : { number, label }
}

/** How a cell's number was read: the first of several (`several`), a label written with it left out (`labelled`). */
export interface CellReading {
  readonly reading: Msisdn.Normalized | Errors.MsisdnProblem
  readonly several: boolean
  readonly labelled: boolean
}

/**
 * A cell's number: of several, the one a label says is a mobile, else the first that reads (`several`); else the
 * whole cell's reading, its problem included. A cell that reads whole as one number is one, unless each later part
 * starts afresh: `015511/819377` is a German mobile written with its area code apart, `030 1234 / 030 5678` two numbers;
 * where no part reads, the whole is read (`015849/081178`). A label written with a number (`Mob: 07400 123456`) is left
 * out (`labelled`). `one`: the cell holds one number, whatever its separators (a suppression list opts out every number
 * it names, so a cell of several is refused whole rather than read in part).
 */
export const readCell = (text: string, options: Msisdn.Options, one = false): CellReading => {
  const parts = one ? undefined : severalNumbers(text)
  const pieces = parts?.map(labelled) ?? []
  const fresh = pieces.length > 1 && pieces.slice(1).every((piece) => freshStart.test(piece.number))
  const whole = fresh ? undefined : readOne(text, options)
  if (parts === undefined || (whole !== undefined && typeof whole.reading !== "string")) return whole ?? readOne(text, options)
  const mobileFirst = [...pieces.filter((piece) => piece.label !== undefined && Columns.isMobile(piece.label)), ...pieces]
  for (const piece of mobileFirst) {
    const reading = Msisdn.reading(piece.number, options)
    if (typeof reading !== "string") return { reading, several: true, labelled: piece.label !== undefined }
  }
  return whole ?? readOne(text, options)
}

/** One number of a cell, its label left out. */
const readOne = (text: string, options: Msisdn.Options): CellReading => {
  const { label, number } = labelled(text)
  return { reading: Msisdn.reading(number, options), several: false, labelled: label !== undefined }
}
