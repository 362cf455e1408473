/**
 * Which phone cell of a row is its number, and what of the cell is: the column a label says is a mobile (Google
 * Contacts' `Phone 2 - Label`), the first number that reads of a cell holding several.
 */
import type { Errors } from "@smsbook/core"
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

/**
 * A cell's number: the first of several that reads (`several`); else the whole cell's reading, its problem included.
 * A cell that reads whole as one number is one, unless each later part starts afresh: `015511/819377` is a German
 * mobile written with its area code apart, `030 1234 / 030 5678` two numbers; where no part reads, the whole is read
 * (`015849/081178`).
 */
export const readCell = (text: string, options: Msisdn.Options): { readonly reading: Msisdn.Normalized | Errors.MsisdnProblem; readonly several: boolean } => {
  const parts = severalNumbers(text)
  const fresh = parts !== undefined && parts.slice(1).every((part) => freshStart.test(part))
  const whole = fresh ? undefined : Msisdn.reading(text, options)
  if (parts === undefined || (whole !== undefined && typeof whole !== "string")) return { reading: whole ?? Msisdn.reading(text, options), several: false }
  for (const part of parts) {
    const reading = Msisdn.reading(part, options)
    if (typeof reading !== "string") return { reading, several: true }
  }
  return { reading: whole ?? Msisdn.reading(text, options), several: false }
}
