/**
 * The report's CSV records written by hand for its known columns: the bytes csv-stringify writes with smsbook's
 * options (a property test holds the two equal), without its per-cell option handling — the report's hot loop.
 */
import type { Message } from "@smsbook/core"
import * as spreadsheet from "./csv/spreadsheet.ts"

/**
 * What makes csv-stringify quote a cell under smsbook's options: the delimiter, the quote, and a CR or LF
 * (`quoted_match`, so a line break inside a cell never ends a row, whatever the line ends).
 */
const needsQuotes = /[",\n\r]/

const quote = /"/g

/** Text cells for one line-end style. */
export interface Cells {
  /** A text cell: spreadsheet-safe, then quoted (quotes doubled) when it must be; empty stays empty. */
  readonly text: (value: string) => string
  readonly eol: string
}

const cellsOf = (eol: string): Cells => ({
  eol,
  text: (value) => {
    if (value === "") return ""
    const safe = spreadsheet.neutralize(value)
    return needsQuotes.test(safe) ? `"${safe.replace(quote, "\"\"")}"` : safe
  }
})

/** `\n` line ends (the default). */
export const unix: Cells = cellsOf("\n")

/** `\r\n` line ends (`--excel`). */
export const excel: Cells = cellsOf("\r\n")

const flag = (value: boolean): string => value ? "true" : "false"

/** The header line of the report's columns (`Report.columns`, asserted equal by the tests). */
export const header = ({ eol }: Cells): string =>
  "message_id,id,short_code,country,msisdn,direction,status,message,total_recipients,sent_count,error_count," +
  `total_monitors,is_scheduled,is_billable,created_on,created_by,type${eol}`

/**
 * One record of a stored message, `created_on` already formatted in the account's zone: the record
 * csv-stringify makes of `Messaging.toWire(stored)` (`sent_from` is never filled, so never a column).
 */
export const record = (message: Message.Stored, createdOn: string, cells: Cells): string => {
  const { text } = cells
  return `${text(message.message_id)},${message.id === undefined ? "" : text(message.id)},${text(message.short_code)},` +
    `${message.country === undefined ? "" : text(message.country)},${message.msisdn === undefined ? "" : text(message.msisdn)},` +
    `${text(message.direction)},${text(message.status)},${text(message.message)},` +
    `${message.total_recipients},${message.sent_count},${message.error_count},${message.total_monitors},` +
    `${flag(message.is_scheduled)},${flag(message.is_billable)},${text(createdOn)},` +
    `${message.created_by === undefined ? "" : text(message.created_by)},${message.type}${cells.eol}`
}
