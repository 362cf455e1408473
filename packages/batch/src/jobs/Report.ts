/**
 * The message report: every message matching the filters of `GET /messages`, streamed as
 * spreadsheet-safe CSV, a JSON array or JSON Lines, with an optional summary per day × status × direction.
 */
import { Account, CreatedOn, Message, Messaging, MessageStore } from "@smsbook/core"
import { Effect, Stream } from "effect"
import * as MessageCsv from "../internal/messageCsv.ts"
import * as OutputPath from "../internal/outputPath.ts"

/** The CSV columns: the message fields of the interface, in its order (`sent_from` is never filled). */
export const columns: ReadonlyArray<string> = Object.keys(Message.Message.fields).filter((field) => field !== "sent_from")

/**
 * The SQLite page cache a report asks for, KiB: it reads each page of the book once, in index order, so a large
 * cache only holds memory (64 MiB of it by default).
 */
export const cacheKiB = 8192

export type Format = "csv" | "json" | "jsonl"

export interface Options {
  /** CSV only: a UTF-8 byte order mark and CRLF line ends, so Excel reads accents and emoji right. */
  readonly excel?: boolean
}

/** One line of the summary: the messages of a day in one status and direction. */
export interface SummaryRow {
  readonly day: string
  readonly status: Message.Status
  readonly direction: Message.Direction
  readonly messages: number
  readonly sms: number
  readonly recipients: number
  readonly monitors: number
  readonly errors: number
}

export interface Result {
  readonly rows: number
  readonly summary: ReadonlyArray<SummaryRow>
}

const jsonlOf = (messages: ReadonlyArray<Message.Message>): string => messages.map((message) => `${JSON.stringify(message)}\n`).join("")

const jsonOf = (messages: ReadonlyArray<Message.Message>, first: boolean): string =>
  messages.map((message, index) => `${first && index === 0 ? "\n" : ",\n"}  ${JSON.stringify(message)}`).join("")

/** What the summary counts of a message, stored or on the wire. */
type Counted = Pick<Message.Message, "status" | "direction" | "sent_count" | "total_recipients" | "total_monitors" | "error_count">

type Tally = { -readonly [K in keyof SummaryRow]: SummaryRow[K] }

/**
 * The summary being added up: one tally per day × status × direction. Messages come in time order, so the
 * day's table is looked up only when the day changes (no key built per row).
 */
const summarizer = () => {
  const days = new Map<string, Map<Message.Status, Map<Message.Direction, Tally>>>()
  let day = ""
  let table: Map<Message.Status, Map<Message.Direction, Tally>> | undefined
  return {
    add: (message: Counted, createdOn: string): void => {
      if (table === undefined || !createdOn.startsWith(day)) {
        day = createdOn.slice(0, 10)
        table = days.get(day) ?? new Map()
        days.set(day, table)
      }
      let byDirection = table.get(message.status)
      if (byDirection === undefined) {
        byDirection = new Map()
        table.set(message.status, byDirection)
      }
      let row = byDirection.get(message.direction)
      if (row === undefined) {
        row = { day, status: message.status, direction: message.direction, messages: 0, sms: 0, recipients: 0, monitors: 0, errors: 0 }
        byDirection.set(message.direction, row)
      }
      row.messages++
      row.sms += message.sent_count
      row.recipients += message.total_recipients
      row.monitors += message.total_monitors
      row.errors += message.error_count
    },
    rows: (): ReadonlyArray<SummaryRow> =>
      [...days.values()].flatMap((table) => [...table.values()].flatMap((byDirection) => [...byDirection.values()])).sort((a, b) =>
        a.day.localeCompare(b.day) || a.direction.localeCompare(b.direction) || a.status.localeCompare(b.status)
      )
  }
}

/**
 * Streams the report to `out` (`-` for stdout); memory stays flat whatever the number of messages.
 * The summary is accumulated on the way, one entry per day × status × direction.
 */
export const write = Effect.fnUntraced(function*(filter: MessageStore.Filter, format: Format, out: string, options: Options = {}) {
  const excel = options.excel === true && format === "csv"
  const cells = excel ? MessageCsv.excel : MessageCsv.unix
  const account = yield* Account.Account
  const store = yield* MessageStore.MessageStore
  const zone = yield* Effect.fromResult(CreatedOn.zone(account.time_zone))
  const summary = summarizer()
  let rows = 0
  yield* Effect.scoped(Effect.gen(function*() {
    const sink = yield* OutputPath.openExport(out)
    if (excel) yield* sink.write("\uFEFF")
    if (format === "json") yield* sink.write("[")
    // A chunk of the store's stream (one keyset page) at a time: no per-row effect on the hot path.
    yield* store.stream(filter).pipe(
      Stream.runForEachArray((page) => {
        let text = ""
        if (format === "csv") {
          if (rows === 0) text = MessageCsv.header(cells)
          for (const stored of page) {
            const createdOn = CreatedOn.formatMillis(stored.created_at, zone)
            summary.add(stored, createdOn)
            text += MessageCsv.record(stored, createdOn, cells)
          }
        } else {
          const batch = page.map((stored) => Messaging.toWire(stored, zone))
          for (const message of batch) summary.add(message, message.created_on)
          text = format === "jsonl" ? jsonlOf(batch) : jsonOf(batch, rows === 0)
        }
        rows += page.length
        return sink.write(text)
      })
    )
    if (format === "csv" && rows === 0) yield* sink.write(MessageCsv.header(cells))
    if (format === "json") yield* sink.write(rows === 0 ? "]\n" : "\n]\n")
    yield* sink.close
  }))
  return { rows, summary: summary.rows() } satisfies Result
})
