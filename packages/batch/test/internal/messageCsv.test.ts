/**
 * Law of the report's hand-written CSV records: for any stored message, the bytes csv-stringify writes of its
 * wire form with smsbook's options (quotes, line ends, formulas, emoji, absent fields, both line-end styles).
 */
import { CreatedOn, Message, Messaging } from "@smsbook/core"
import { stringify } from "csv-stringify/sync"
import { Arbitraries } from "@smsbook/testing"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as spreadsheet from "../../src/internal/csv/spreadsheet.ts"
import * as MessageCsv from "../../src/internal/messageCsv.ts"
import * as Report from "../../src/jobs/Report.ts"

/** Text that reaches every rule: delimiters, quotes, CR and LF, formula starts, accents, emoji, lone surrogates left out. */
const tricky = fc.oneof(
  fc.string({ unit: fc.constantFrom("a", "Z", "0", " ", ",", "\"", "\n", "\r", "=", "+", "-", "@", "\t", "'", "é", "😀", ";") }),
  fc.string({ unit: "grapheme" }),
  fc.constantFrom("", "=SUM(A1)", "-5", "+44", "@x", "\tx", "\rx", "a\r\nb", "\"", "\"\"", ",")
)

const stored = Arbitraries.storedMessage(() => tricky)

const zone = CreatedOn.utc

/** What the report wrote before: csv-stringify's sync API on the wire messages. */
const viaLibrary = (messages: ReadonlyArray<Message.Stored>, excel: boolean): string =>
  stringify(messages.map((message) => Messaging.toWire(message, zone)), {
    ...spreadsheet.csvOptions,
    record_delimiter: excel ? "windows" : "unix",
    header: true,
    columns: [...Report.columns]
  })

const viaEncoder = (messages: ReadonlyArray<Message.Stored>, excel: boolean): string => {
  const cells = excel ? MessageCsv.excel : MessageCsv.unix
  return MessageCsv.header(cells) +
    messages.map((message) => MessageCsv.record(message, CreatedOn.formatMillis(message.created_at, zone), cells)).join("")
}

describe("MessageCsv", () => {
  it("writes csv-stringify's bytes for any messages, Unix or Excel line ends", () => {
    fc.assert(
      fc.property(fc.array(stored, { maxLength: 8 }), fc.boolean(), (messages, excel) => {
        expect(viaEncoder(messages, excel)).toBe(viaLibrary(messages, excel))
      }),
      { numRuns: 500 }
    )
  })

  it("quotes, doubles quotes and neutralises formulas in text cells", () => {
    const { text } = MessageCsv.unix
    expect(text("")).toBe("")
    expect(text("plain")).toBe("plain")
    expect(text("a,b")).toBe("\"a,b\"")
    expect(text("say \"hi\"")).toBe("\"say \"\"hi\"\"\"")
    expect(text("line\nbreak")).toBe("\"line\nbreak\"")
    expect(text("bare\rcr")).toBe("\"bare\rcr\"")
    expect(text("=1+1")).toBe("'=1+1")
    expect(text("-5,6")).toBe("\"'-5,6\"")
    // Under --excel a lone \n is quoted too: a spreadsheet would end the row there.
    expect(MessageCsv.excel.text("line\nbreak")).toBe("\"line\nbreak\"")
    expect(MessageCsv.excel.text("crlf\r\n")).toBe("\"crlf\r\n\"")
  })

  it("has the report's header", () => {
    expect(MessageCsv.header(MessageCsv.unix)).toBe(`${Report.columns.join(",")}\n`)
    expect(MessageCsv.header(MessageCsv.excel)).toBe(`${Report.columns.join(",")}\r\n`)
  })
})
