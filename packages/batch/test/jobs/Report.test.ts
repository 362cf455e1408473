/**
 * Laws of the message report: its CSV and JSON read back as the messages `GET /messages` lists, no
 * cell is ever a formula, and the summary per day × status × direction adds up to the rows.
 */
import { describe, expect, it } from "@effect/vitest"
import { Account, ContactBook, MemoryStore, type Message, Messaging, type MessageStore, Sms } from "@smsbook/core"
import { parse } from "csv-parse/sync"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll } from "vitest"
import * as Report from "../../src/jobs/Report.ts"

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-report-test-"))
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }))
let files = 0
const tempFile = (name: string) => path.join(temporary, `${++files}-${name}`)

const acme: Account.Settings = { ...Account.defaults, short_name: "ACME" }
const layerIn = (settings: Account.Settings) => Layer.mergeAll(MemoryStore.layer, Account.layer(settings))
const layer = layerIn(acme)

const msisdnOf = (index: number) => `4474002${String(index).padStart(5, "0")}`
const [first, second, third] = [msisdnOf(1), msisdnOf(2), msisdnOf(3)]

const formulaStarts = ["=", "+", "-", "@", "\t", "\r"]
const startsWithFormula = (text: string) => formulaStarts.some((start) => text.startsWith(start))
/** A formula start, after any `'`s: such a cell gets one more `'` (so `'=x` reads back as `'=x`). */
const needsQuote = (text: string) => startsWithFormula(text.replace(/^'+/, ""))

/**
 * The CSV record the rule makes of a wire message: absent fields empty, numbers as text, flags
 * `true`/`false`, text starting with `= + - @`, tab or CR behind a `'`. (Neutralising is not
 * injective — `=x` and `'=x` both give `'=x` — so records are compared this way, not read back.)
 */
const toRecord = (message: Message.Message): Readonly<Record<string, string>> => {
  const fields: Readonly<Record<string, unknown>> = message
  return Object.fromEntries(Report.columns.map((column) => {
    const value = fields[column]
    if (value === undefined) return [column, ""]
    if (typeof value === "string") return [column, needsQuote(value) ? `'${value}` : value]
    return [column, String(value)]
  }))
}

const readCsv = (file: string, options: { readonly recordDelimiter?: ReadonlyArray<string> } = {}) =>
  parse(fs.readFileSync(file, "utf8"), {
    columns: true,
    ...(options.recordDelimiter === undefined ? {} : { record_delimiter: [...options.recordDelimiter] })
  }) as ReadonlyArray<Record<string, string>>

const readRawCells = (file: string): ReadonlyArray<ReadonlyArray<string>> =>
  parse(fs.readFileSync(file, "utf8"), { record_delimiter: "\n" }) as ReadonlyArray<ReadonlyArray<string>>

/** Everything `GET /messages` lists for `params` (one page is enough for these books). */
const listed = (params: Readonly<Record<string, string>> = {}) => Messaging.listMessages({ Limit: "1000", ...params })

/** The summary computed from the listed messages, by the rule: one line per day (account zone) × status × direction. */
const summaryOf = (messages: ReadonlyArray<Message.Message>): ReadonlyArray<Report.SummaryRow> => {
  const rows = new Map<string, Report.SummaryRow>()
  for (const m of messages) {
    const day = m.created_on.slice(0, 10)
    const key = `${day}|${m.direction}|${m.status}`
    const row = rows.get(key) ??
      { day, status: m.status, direction: m.direction, messages: 0, sms: 0, recipients: 0, monitors: 0, errors: 0 }
    rows.set(key, {
      ...row,
      messages: row.messages + 1,
      sms: row.sms + m.sent_count,
      recipients: row.recipients + m.total_recipients,
      monitors: row.monitors + m.total_monitors,
      errors: row.errors + m.error_count
    })
  }
  return [...rows.entries()].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([, row]) => row)
}

const contact = (msisdn: string, tags: ReadonlyArray<string>, monitoring = false) =>
  Effect.andThen(ContactBook.createContact(msisdn, {}), ContactBook.editContact(msisdn, { tags: [...tags], monitoring }))

const saleText = "Sale ☺ ".repeat(12)

/**
 * A book over two days (UTC): on 9 March an individual message delivered, one left READY whose text
 * is a formula, an inbound reply starting with `-`; on 10 March a two-segment broadcast to two
 * recipients and a monitor, and an inbound STOP.
 */
const seedBook = Effect.gen(function*() {
  yield* TestClock.setTime(Date.UTC(2024, 2, 9, 10, 0, 0))
  yield* contact(first, ["news"])
  yield* contact(second, ["NEWS"])
  yield* contact(third, [], true)
  const hello = yield* Messaging.sendToContact({ msisdn: first, message: "Hello, \"friend\"" })
  yield* Messaging.deliverMessage(hello.message_id ?? "")
  yield* Messaging.sendToContact({ msisdn: second, message: "=HYPERLINK(\"http://evil\",\"x\")", id: "promo-1" })
  yield* TestClock.adjust("2 hours")
  yield* Messaging.receiveMessage(first, "-5 off? @shop")
  yield* TestClock.adjust("1 day")
  yield* Messaging.broadcast({ tags: ["news"], message: saleText }, { allowEmpty: false })
  yield* Messaging.receiveMessage(msisdnOf(9), "STOP")
})

/** The seeded book written as a report in `format` to a temporary file, beside the messages `listMessages` gives. */
const seededReport = (format: "csv" | "json", name: string) =>
  Effect.gen(function*() {
    yield* seedBook
    const file = tempFile(name)
    const result = yield* Report.write({}, format, file)
    return { file, result, messages: yield* listed() }
  })

describe("Report.write csv", () => {
  it.effect("reads back as the listed messages, formula cells neutralised", () =>
    Effect.gen(function*() {
      const { file, result, messages } = yield* seededReport("csv", "report.csv")
      expect(messages).toHaveLength(5)
      expect(result.rows).toBe(messages.length)
      const records = readCsv(file)
      expect(records).toStrictEqual(messages.map(toRecord))
      const formula = records.find((record) => record["message"]?.includes("HYPERLINK"))
      expect(formula?.["message"]).toBe("'=HYPERLINK(\"http://evil\",\"x\")")
      expect(records.find((record) => record["direction"] === "MO" && record["message"] !== "STOP")?.["message"]).toBe("'-5 off? @shop")
      expect(records.map((record) => record["is_billable"])).toStrictEqual(messages.map((m) => String(m.is_billable)))
    }).pipe(Effect.provide(layer)))

  it.effect("the header is the columns, in the interface's order, and no cell starts a formula", () =>
    Effect.gen(function*() {
      yield* seedBook
      const file = tempFile("raw.csv")
      yield* Report.write({}, "csv", file)
      const [header, ...rows] = readRawCells(file)
      expect(header).toStrictEqual([...Report.columns])
      expect(rows).toHaveLength(5)
      for (const row of rows) {
        expect(row).toHaveLength(Report.columns.length)
        for (const cell of row) expect(startsWithFormula(cell)).toBe(false)
      }
    }).pipe(Effect.provide(layer)))

  it.effect("the summary per day × status × direction, by example", () =>
    Effect.gen(function*() {
      yield* seedBook
      const result = yield* Report.write({}, "csv", tempFile("summary.csv"))
      const segments = Sms.analyzePrefixed("ACME", saleText).segments
      expect(segments).toBe(2)
      expect(result.summary).toStrictEqual([
        { day: "2024-03-09", status: "SENT", direction: "MO", messages: 1, sms: 0, recipients: 0, monitors: 0, errors: 0 },
        { day: "2024-03-09", status: "READY", direction: "MT", messages: 1, sms: 0, recipients: 1, monitors: 0, errors: 0 },
        { day: "2024-03-09", status: "SENT", direction: "MT", messages: 1, sms: 1, recipients: 1, monitors: 0, errors: 0 },
        { day: "2024-03-10", status: "SENT", direction: "MO", messages: 1, sms: 0, recipients: 0, monitors: 0, errors: 0 },
        { day: "2024-03-10", status: "SENT", direction: "MT", messages: 1, sms: 2 * 3, recipients: 2, monitors: 1, errors: 0 }
      ])
    }).pipe(Effect.provide(layer)))

  it.effect("days are those of the account's time zone", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2024, 2, 10, 2, 30, 0))
      yield* Messaging.receiveMessage(first, "late")
      const file = tempFile("zone.csv")
      const result = yield* Report.write({}, "csv", file)
      expect(result.summary.map((row) => row.day)).toStrictEqual(["2024-03-09"])
      expect(readCsv(file).map((record) => record["created_on"])).toStrictEqual(["2024-03-09 21:30:00"])
    }).pipe(Effect.provide(layerIn({ ...acme, time_zone: "America/New_York" }))))

  it.effect("filters select the same messages as GET /messages", () =>
    Effect.gen(function*() {
      yield* seedBook
      const cases: ReadonlyArray<readonly [MessageStore.Filter, Readonly<Record<string, string>>]> = [
        [{ direction: "MO" }, { direction: "MO" }],
        [{ direction: "MT" }, { direction: "MT" }],
        [{ msisdn: first }, { msisdn: first }],
        [{ group: "News" }, { group_short_name: "News" }],
        [{ from: Date.UTC(2024, 2, 10) }, { start_date: "Sun, 10 Mar 2024 00:00:00 GMT" }]
      ]
      for (const [filter, params] of cases) {
        const file = tempFile("filtered.csv")
        const result = yield* Report.write(filter, "csv", file)
        const messages = yield* listed(params)
        expect(messages.length).toBeGreaterThan(0)
        expect(result.rows).toBe(messages.length)
        expect(readCsv(file)).toStrictEqual(messages.map(toRecord))
      }
    }).pipe(Effect.provide(layer)))

  it.effect("no messages: the header alone, zero rows, an empty summary", () =>
    Effect.gen(function*() {
      const file = tempFile("empty.csv")
      const result = yield* Report.write({}, "csv", file)
      expect(result).toStrictEqual({ rows: 0, summary: [] })
      expect(fs.readFileSync(file, "utf8")).toBe(`${Report.columns.join(",")}\n`)
    }).pipe(Effect.provide(layer)))

  it.effect("a text with a bare carriage return stays one row for a reader that ends lines at CR (as spreadsheets do)", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2024, 2, 9, 10, 0, 0))
      yield* Messaging.receiveMessage(first, "first line\rsecond line")
      yield* Messaging.receiveMessage(second, "\rstarts with CR")
      const file = tempFile("cr.csv")
      yield* Report.write({}, "csv", file)
      const messages = yield* listed()
      expect(readCsv(file, { recordDelimiter: ["\r\n", "\n", "\r"] })).toStrictEqual(messages.map(toRecord))
    }).pipe(Effect.provide(layer)))
})

describe("Report.write json", () => {
  it.effect("parses to the listed messages", () =>
    Effect.gen(function*() {
      const { file, result, messages } = yield* seededReport("json", "report.json")
      expect(JSON.parse(fs.readFileSync(file, "utf8"))).toStrictEqual(messages)
      expect(result.rows).toBe(messages.length)
      expect(result.summary).toStrictEqual(summaryOf(messages))
    }).pipe(Effect.provide(layer)))

  it.effect("no messages: an empty array", () =>
    Effect.gen(function*() {
      const file = tempFile("empty.json")
      const result = yield* Report.write({}, "json", file)
      expect(JSON.parse(fs.readFileSync(file, "utf8"))).toStrictEqual([])
      expect(result.rows).toBe(0)
    }).pipe(Effect.provide(layer)))

  it.effect("an unwritable place is bad input naming --out, found before any work, and leaves nothing", () =>
    Effect.gen(function*() {
      yield* seedBook
      const file = path.join(temporary, "no-such-directory", "report.json")
      const error = yield* Effect.flip(Report.write({}, "json", file))
      expect(error).toMatchObject({ _tag: "InvalidParameter", parameter: "--out" })
      expect(fs.existsSync(path.dirname(file))).toBe(false)
    }).pipe(Effect.provide(layer)))
})

type Step =
  | { readonly kind: "send"; readonly to: number; readonly text: string; readonly deliver: boolean }
  | { readonly kind: "receive"; readonly from: number; readonly text: string }
  | { readonly kind: "broadcast"; readonly tag: string; readonly text: string }
  | { readonly kind: "wait"; readonly hours: number }

const text = fc.string({
  unit: fc.constantFrom(...formulaStarts, "a", "Z", "1", " ", ",", "\"", "'", "\n", "é", "☺", ";"),
  maxLength: 30
}).filter((text) => text.trim() !== "") // a blank text is refused before anything is stored

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("send" as const), to: fc.nat(3), text, deliver: fc.boolean() }),
  fc.record({ kind: fc.constant("receive" as const), from: fc.nat(4), text }),
  fc.record({ kind: fc.constant("broadcast" as const), tag: fc.constantFrom("news", "sport", "nobody"), text }),
  fc.record({ kind: fc.constant("wait" as const), hours: fc.integer({ min: 1, max: 40 }) })
)

const play = (steps: ReadonlyArray<Step>) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(Date.UTC(2024, 0, 31, 20, 0, 0))
    yield* contact(msisdnOf(0), ["news"])
    yield* contact(msisdnOf(1), ["sport", "news"], true)
    yield* contact(msisdnOf(2), [], true)
    for (const s of steps) {
      if (s.kind === "wait") yield* TestClock.adjust(`${s.hours} hours`)
      else if (s.kind === "send") {
        const sent = yield* Messaging.sendToContact({ msisdn: msisdnOf(s.to), message: s.text })
        if (s.deliver) yield* Messaging.deliverMessage(sent.message_id ?? "")
      } else if (s.kind === "receive") yield* Messaging.receiveMessage(msisdnOf(s.from), s.text)
      else yield* Messaging.broadcast({ tags: [s.tag], message: s.text }, { allowEmpty: true })
    }
  }).pipe(
    // A generated inbound text may be an opt-out keyword; a later send to that number is then refused, as it should be.
    Effect.catchTag("RecipientOptedOut", () => Effect.void)
  )

describe("Report.write laws", () => {
  it("law: CSV and JSON read back as the listed messages; the summary adds up to the rows and their SMS", async () => {
    await fc.assert(fc.asyncProperty(fc.array(step, { maxLength: 15 }), fc.constantFrom("UTC", "Asia/Tokyo", "America/Los_Angeles"), async (steps, zone) => {
      const csv = tempFile("law.csv")
      const json = tempFile("law.json")
      const { csvResult, jsonResult, messages } = await Effect.runPromise(Effect.gen(function*() {
        yield* play(steps)
        const csvResult = yield* Report.write({}, "csv", csv)
        const jsonResult = yield* Report.write({}, "json", json)
        return { csvResult, jsonResult, messages: yield* listed() }
      }).pipe(Effect.provide(Layer.mergeAll(layerIn({ ...acme, time_zone: zone }), TestClock.layer()))))
      expect(readCsv(csv)).toStrictEqual(messages.map(toRecord))
      expect(JSON.parse(fs.readFileSync(json, "utf8"))).toStrictEqual(messages)
      for (const result of [csvResult, jsonResult]) {
        expect(result.rows).toBe(messages.length)
        expect(result.summary.reduce((sum, row) => sum + row.messages, 0)).toBe(result.rows)
        expect(result.summary.reduce((sum, row) => sum + row.sms, 0)).toBe(messages.reduce((sum, m) => sum + m.sent_count, 0))
        expect(result.summary).toStrictEqual(summaryOf(messages))
      }
      for (const row of readRawCells(csv)) for (const cell of row) expect(startsWithFormula(cell)).toBe(false)
    }), { numRuns: 40 })
  })
})
