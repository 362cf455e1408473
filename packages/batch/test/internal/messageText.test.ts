/**
 * A message file's text: valid Unicode and not blank; bytes that are not UTF-8 refused unless an
 * encoding is given; every other text passes unchanged (one trailing line end of a file dropped).
 */
import { Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as MessageText from "../../src/internal/messageText.ts"

describe("MessageText.decode", () => {
  it("refuses UTF-16 without a byte order mark, pointing to --encoding, and reads it with --encoding", () => {
    const bytes = Buffer.from("Doors open at 9", "utf16le")
    const refused = MessageText.decode(bytes, "m.txt", undefined)
    expect(Result.isFailure(refused) && refused.failure.reason).toMatch(/NUL bytes.*--encoding/)
    expect(MessageText.decode(bytes, "m.txt", "utf-16le")).toStrictEqual(Result.succeed("Doors open at 9"))
  })

  it("round-trips UTF-8 text, dropping one trailing line end", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme", minLength: 1 }), fc.constantFrom("", "\n", "\r\n"), (text, end) => {
      fc.pre(text.trim() !== "" && !text.includes("\uFFFD") && !/\r?\n$/.test(text))
      expect(MessageText.decode(Buffer.from(text + end, "utf8"), "m.txt", undefined)).toStrictEqual(Result.succeed(text))
    }))
  })

  it("refuses bytes that are not UTF-8, and reads them with --encoding", () => {
    const bytes = Buffer.from([0x43, 0x61, 0x66, 0xe9])
    const refused = MessageText.decode(bytes, "m.txt", undefined)
    expect(Result.isFailure(refused) && refused.failure.reason).toMatch(/not valid UTF-8.*--encoding/)
    expect(MessageText.decode(bytes, "m.txt", "windows-1252")).toStrictEqual(Result.succeed("Café"))
    expect(Result.isFailure(MessageText.decode(bytes, "m.txt", "no-such-encoding"))).toBe(true)
  })
})
