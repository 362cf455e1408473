/**
 * The message report: every message matching the filters of `GET /messages`, streamed as
 * spreadsheet-safe CSV or as a JSON array, with an optional summary per day × status × direction.
 */
import { Account, CreatedOn, Message, Messaging, MessageStore } from "@smsbook/core"
import { stringify } from "csv-stringify/sync"
import { Effect, Stream } from "effect"
import * as files from "../internal/files.ts"
import * as spreadsheet from "../internal/csv/spreadsheet.ts"

/** The CSV columns: the message fields of the interface, in its order (`sent_from` is never filled). */
export const columns: ReadonlyArray<string> = Object.keys(Message.Message.fields).filter((field) => field !== "sent_from")

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

const csvOf = (messages: ReadonlyArray<Message.Message>, header: boolean, excel: boolean): string =>
  stringify([...messages], { ...spreadsheet.csvOptions, record_delimiter: excel ? "windows" : "unix", header, columns: [...columns] })

const jsonlOf = (messages: ReadonlyArray<Message.Message>): string => messages.map((message) => `${JSON.stringify(message)}\n`).join("")

const jsonOf = (messages: ReadonlyArray<Message.Message>, first: boolean): string =>
  messages.map((message, index) => `${first && index === 0 ? "\n" : ",\n"}  ${JSON.stringify(message)}`).join("")

/**
 * Streams the report to `out` (`-` for stdout); memory stays flat whatever the number of messages.
 * The summary is accumulated on the way, one entry per day × status × direction.
 */
export const write = Effect.fnUntraced(function*(filter: MessageStore.Filter, format: Format, out: string, options: Options = {}) {
  const excel = options.excel === true && format === "csv"
  const account = yield* Account.Account
  const store = yield* MessageStore.MessageStore
  const zone = yield* Effect.fromResult(CreatedOn.zone(account.time_zone))
  const summary = new Map<string, { -readonly [K in keyof SummaryRow]: SummaryRow[K] }>()
  let rows = 0
  yield* Effect.scoped(Effect.gen(function*() {
    const sink = yield* files.open(out)
    if (excel) yield* sink.write("\uFEFF")
    if (format === "json") yield* sink.write("[")
    // A chunk of the store's stream (one keyset page) at a time: no per-row effect on the hot path.
    yield* store.stream(filter).pipe(
      Stream.runForEachArray((page) => {
        const batch = page.map((stored) => Messaging.toWire(stored, zone))
        for (const message of batch) {
          const day = message.created_on.slice(0, 10)
          const key = `${day} ${message.status} ${message.direction}`
          const row = summary.get(key) ??
            { day, status: message.status, direction: message.direction, messages: 0, sms: 0, recipients: 0, monitors: 0, errors: 0 }
          row.messages++
          row.sms += message.sent_count
          row.recipients += message.total_recipients
          row.monitors += message.total_monitors
          row.errors += message.error_count
          summary.set(key, row)
        }
        const text = format === "csv" ? csvOf(batch, rows === 0, excel) : format === "jsonl" ? jsonlOf(batch) : jsonOf(batch, rows === 0)
        rows += batch.length
        return sink.write(text)
      })
    )
    if (format === "csv" && rows === 0) yield* sink.write(csvOf([], true, excel))
    if (format === "json") yield* sink.write(rows === 0 ? "]\n" : "\n]\n")
    yield* sink.close
  }))
  const ordered = [...summary.values()].sort((a, b) =>
    a.day.localeCompare(b.day) || a.direction.localeCompare(b.direction) || a.status.localeCompare(b.status)
  )
  return { rows, summary: ordered } satisfies Result
})
