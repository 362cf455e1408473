/**
 * Laws and examples of the SMS rules: GSM-7 and UCS-2 counting, splitting into parts with a concatenation header,
 * the prefix budget and look-alikes. Over 400 lines: one set of rules, whose laws share the character generators.
 */
import { Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Sms from "../src/Sms.ts"
import {
  astralChar,
  bmpNonGsmChar,
  gsmBasicAlphabet,
  gsmExtensionAlphabet,
  gsmText,
  isGsmOracle,
  loneSurrogate,
  mixedText,
  septetsOracle,
  shortName,
  smsText
} from "./arbitraries.ts"

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff

/** Units of a part in the analysis' encoding, counted by the test's own alphabet. */
const unitsOf = (encoding: Sms.Encoding, part: string) => encoding === "GSM-7" ? septetsOracle(part) : part.length

/** The first character (code point) of a text. */
const firstChar = (text: string) => [...text][0] ?? ""

const anyChar = fc.oneof(
  fc.constantFrom(...gsmBasicAlphabet.replace("\u001B", "")),
  fc.constantFrom(...gsmExtensionAlphabet),
  bmpNonGsmChar,
  astralChar
)

describe("Sms tables", () => {
  it("the basic table is the 128 GSM 03.38 characters in septet order", () => {
    expect(Sms.gsmBasicTable).toHaveLength(128)
    expect(Sms.gsmBasicTable.join("")).toBe(gsmBasicAlphabet)
    expect(Sms.gsmBasicTable[0x00]).toBe("@")
    expect(Sms.gsmBasicTable[0x02]).toBe("$")
    expect(Sms.gsmBasicTable[0x09]).toBe("\u00C7")
    expect(Sms.gsmBasicTable[0x24]).toBe("\u00A4")
    expect(Sms.gsmBasicTable[0x40]).toBe("\u00A1")
    expect(Sms.gsmBasicTable[0x5f]).toBe("\u00A7")
    expect(Sms.gsmBasicTable[0x60]).toBe("\u00BF")
    expect(Sms.gsmBasicTable[0x7f]).toBe("\u00E0")
  })

  it("the extension table is form feed and ^{}\\[~]|€", () => {
    expect(Sms.gsmExtensionTable.map(([, char]) => char).join("")).toBe(gsmExtensionAlphabet)
    expect(new Set(Sms.gsmExtensionTable.map(([septet]) => septet)).size).toBe(gsmExtensionAlphabet.length)
  })

  it("law: a character is GSM exactly when it is in one of the tables (every BMP code point)", () => {
    for (let c = 0; c <= 0xffff; c++) {
      const char = String.fromCharCode(c)
      if (Sms.isGsmCharacter(char) !== isGsmOracle(char)) expect.fail(`U+${c.toString(16)}`)
    }
  })

  it("escape, lower-case ç and Greek look-alike capitals are not GSM", () => {
    expect(Sms.isGsmCharacter("\u001B")).toBe(false)
    expect(Sms.isGsmCharacter("\u00E7")).toBe(false)
    expect(Sms.isGsmCharacter("\u0391")).toBe(false)
    expect(Sms.analyze("\u001B").encoding).toBe("UCS-2")
  })
})

describe("Sms.characterCount and budget", () => {
  it("law: characterCount counts code points, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(anyChar, loneSurrogate)).map((cs) => cs.join("")), (text) => {
        expect(Sms.characterCount(text)).toBe([...text].length)
      })
    )
  })

  it("law: the check succeeds exactly when the text has at most 160 − (short name + 2) code points", () => {
    fc.assert(
      fc.property(shortName, smsText, (name, text) => {
        const length = [...text].length
        const max = 160 - ([...name].length + 2)
        expect(Sms.budget(name)).toBe(max)
        const checked = Sms.checkBudget(name, text)
        if (length <= max) {
          expect(checked).toStrictEqual(Result.succeed(text))
        } else {
          if (Result.isSuccess(checked)) expect.fail("expected MessageTooLong")
          else {
            expect(checked.failure._tag).toBe("MessageTooLong")
            expect(checked.failure.length).toBe(length)
            expect(checked.failure.max).toBe(max)
          }
        }
      })
    )
  })

  it("law: a text within budget, prefixed, is one SMS when all of it is in the basic table", () => {
    const basic = fc.constantFrom(...gsmBasicAlphabet.replace("\u001B", ""))
    fc.assert(
      fc.property(
        fc.string({ unit: basic, minLength: 1, maxLength: 20 }),
        fc.string({ unit: basic, maxLength: 170 }),
        (name, text) => {
          fc.pre(Result.isSuccess(Sms.checkBudget(name, text)))
          expect(Sms.analyzePrefixed(name, text).segments).toBe(1)
        }
      )
    )
  })

  it("examples", () => {
    expect(Sms.budget("ACME")).toBe(154)
    expect(Sms.budget("\u{1F600}")).toBe(157)
    expect(Sms.prefix("ACME", "Hi")).toBe("ACME: Hi")
    expect(Result.isSuccess(Sms.checkBudget("ACME", "a".repeat(154)))).toBe(true)
    expect(Result.isFailure(Sms.checkBudget("ACME", "a".repeat(155)))).toBe(true)
    expect(Result.isSuccess(Sms.checkBudget("ACME", "\u{1F600}".repeat(154)))).toBe(true)
    expect(Result.isFailure(Sms.checkBudget("x".repeat(159), ""))).toBe(true)
  })
})

describe("Sms.analyze laws", () => {
  it("the parts joined give the text back, and segments is the number of parts", () => {
    fc.assert(
      fc.property(smsText, (text) => {
        const analysis = Sms.analyze(text)
        expect(analysis.parts.join("")).toBe(text)
        expect(analysis.segments).toBe(analysis.parts.length)
      })
    )
  })

  it("encoding is GSM-7 exactly when every character is in the GSM tables", () => {
    fc.assert(
      fc.property(smsText, (text) => {
        expect(Sms.analyze(text).encoding === "GSM-7").toBe([...text].every(isGsmOracle))
      })
    )
  })

  it("units are septets (extension characters 2) or UTF-16 units, and equal the sum over the parts", () => {
    fc.assert(
      fc.property(smsText, (text) => {
        const { encoding, units, parts } = Sms.analyze(text)
        expect(units).toBe(unitsOf(encoding, text))
        expect(parts.reduce((sum, part) => sum + unitsOf(encoding, part), 0)).toBe(units)
      })
    )
  })

  it("every part fits its capacity: 160/70 alone, 153/67 in a multipart SMS", () => {
    fc.assert(
      fc.property(smsText, (text) => {
        const { encoding, segments, parts } = Sms.analyze(text)
        const room = segments === 1 ? Sms.capacity[encoding].single : Sms.capacity[encoding].multipart
        expect(room).toBe(encoding === "GSM-7" ? (segments === 1 ? 160 : 153) : (segments === 1 ? 70 : 67))
        for (const part of parts) expect(unitsOf(encoding, part)).toBeLessThanOrEqual(room)
        if (segments > 1) for (const part of parts) expect(part).not.toBe("")
      })
    )
  })

  it("no part splits a surrogate pair", () => {
    fc.assert(
      fc.property(smsText, (text) => {
        for (const part of Sms.analyze(text).parts) {
          if (part.length === 0) continue
          expect(isLow(part.charCodeAt(0))).toBe(false)
          expect(isHigh(part.charCodeAt(part.length - 1))).toBe(false)
        }
      })
    )
  })

  it("parts are filled greedily: a part ends only when the next character would not fit", () => {
    fc.assert(
      fc.property(smsText, (text) => {
        const { encoding, parts } = Sms.analyze(text)
        const room = Sms.capacity[encoding].multipart
        for (let i = 0; i + 1 < parts.length; i++) {
          const next = firstChar(parts[i + 1] ?? "")
          expect(unitsOf(encoding, parts[i] ?? "") + unitsOf(encoding, next)).toBeGreaterThan(room)
        }
      })
    )
  })

  it("one part exactly when the text fits 160 septets / 70 units", () => {
    fc.assert(
      fc.property(smsText, (text) => {
        const { encoding, units, segments } = Sms.analyze(text)
        expect(segments === 1).toBe(units <= (encoding === "GSM-7" ? 160 : 70))
      })
    )
  })

  it("appending a character never lowers the segment count", () => {
    fc.assert(
      fc.property(smsText, anyChar, (text, char) => {
        expect(Sms.analyze(text + char).segments).toBeGreaterThanOrEqual(Sms.analyze(text).segments)
      })
    )
  })

  it("lone surrogates count one UCS-2 unit each and the text still round-trips", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(anyChar, loneSurrogate), { maxLength: 120 }), (chars) => {
        const text = chars.join("")
        const analysis = Sms.analyze(text)
        expect(analysis.parts.join("")).toBe(text)
        if (analysis.encoding === "UCS-2") expect(analysis.units).toBe(text.length)
      })
    )
  })

  it("the prefix counts: analyzePrefixed is the analysis of the prefixed text", () => {
    fc.assert(
      fc.property(shortName, mixedText, (name, text) => {
        const analysis = Sms.analyzePrefixed(name, text)
        expect(analysis).toStrictEqual(Sms.analyze(`${name}: ${text}`))
        if (![...name].every(isGsmOracle)) expect(analysis.encoding).toBe("UCS-2")
      })
    )
  })
})

/** `first + char + rest` costs `units` and splits before `char`, which would straddle the end of the first part. */
const expectMovedWhole = (first: string, char: string, rest: string, units: number) => {
  const analysis = Sms.analyze(first + char + rest)
  expect(analysis.units).toBe(units)
  expect(analysis.parts).toStrictEqual([first, char + rest])
}

describe("Sms.analyze examples", () => {
  it("160 GSM characters are one SMS, 161 are two", () => {
    expect(Sms.analyze("a".repeat(160))).toStrictEqual({
      encoding: "GSM-7",
      units: 160,
      segments: 1,
      parts: ["a".repeat(160)]
    })
    const two = Sms.analyze("a".repeat(161))
    expect(two.segments).toBe(2)
    expect(two.parts.map((p) => p.length)).toStrictEqual([153, 8])
  })

  it("306 GSM characters are two SMS, 307 are three", () => {
    expect(Sms.analyze("a".repeat(306)).segments).toBe(2)
    expect(Sms.analyze("a".repeat(307)).segments).toBe(3)
  })

  it("extension characters cost two septets", () => {
    expect(Sms.analyze("\u20AC".repeat(80))).toMatchObject({ encoding: "GSM-7", units: 160, segments: 1 })
    expect(Sms.analyze("\u20AC".repeat(81))).toMatchObject({ encoding: "GSM-7", units: 162, segments: 2 })
    expect(Sms.analyze("\f{}").units).toBe(6)
  })

  it("€ at septet 152 of a multipart text moves whole to the next part", () => {
    expectMovedWhole("a".repeat(152), "\u20AC", "a".repeat(10), 164)
  })

  it("70 UCS-2 units are one SMS, 71 are two", () => {
    expect(Sms.analyze("\u0436".repeat(70))).toMatchObject({ encoding: "UCS-2", units: 70, segments: 1 })
    const two = Sms.analyze("\u0436".repeat(71))
    expect(two.segments).toBe(2)
    expect(two.parts.map((p) => p.length)).toStrictEqual([67, 4])
  })

  it("an emoji at the part boundary moves whole to the next part", () => {
    expectMovedWhole("\u0436".repeat(66), "\u{1F600}", "\u0436".repeat(10), 78)
  })

  it("35 emoji are one SMS (70 units), 36 are two", () => {
    expect(Sms.analyze("\u{1F600}".repeat(35)).segments).toBe(1)
    expect(Sms.analyze("\u{1F600}".repeat(36)).segments).toBe(2)
  })

  it("grapheme clusters may be split (3GPP policy): a flag straddles the boundary", () => {
    const flag = "\u{1F1EC}\u{1F1E7}"
    const { parts } = Sms.analyze("\u0436".repeat(65) + flag + "\u0436".repeat(10))
    expect(parts[0]).toBe("\u0436".repeat(65) + "\u{1F1EC}")
    expect(parts[1]?.startsWith("\u{1F1E7}")).toBe(true)
  })

  it("one non-GSM character makes the whole text UCS-2", () => {
    expect(Sms.analyze("a".repeat(100) + "\u00E1")).toMatchObject({ encoding: "UCS-2", units: 101, segments: 2 })
  })

  it("the empty text is one SMS with one empty part", () => {
    expect(Sms.analyze("")).toStrictEqual({ encoding: "GSM-7", units: 0, segments: 1, parts: [""] })
  })

  it("a non-GSM short name makes the message UCS-2; a GSM accent does not", () => {
    expect(Sms.analyzePrefixed("Caf\u00E1", "hello").encoding).toBe("UCS-2")
    expect(Sms.analyzePrefixed("Caf\u00E9", "hello").encoding).toBe("GSM-7")
    expect(Sms.analyzePrefixed("A|B", "hello").units).toBe(Sms.prefix("A|B", "hello").length + 1)
  })
})

describe("Sms.sentCount", () => {
  it("every part goes to every recipient and monitor", () => {
    expect(Sms.sentCount(2, 10, 3)).toBe(26)
    expect(Sms.sentCount(3, 0, 0)).toBe(0)
    expect(Sms.sentCount(1, 1, 0)).toBe(1)
  })

  it("law: one more recipient or monitor costs one more of each segment", () => {
    fc.assert(
      fc.property(fc.nat(20), fc.nat(1000), fc.nat(1000), (segments, recipients, monitors) => {
        const base = Sms.sentCount(segments, recipients, monitors)
        expect(Sms.sentCount(segments, recipients + 1, monitors) - base).toBe(segments)
        expect(Sms.sentCount(segments, recipients, monitors + 1) - base).toBe(segments)
        expect(Sms.sentCount(segments, 0, 0)).toBe(0)
      })
    )
  })
})

/** Each character's look-alike is the one the table gives it (`undefined`: it has none). */
const expectLookAlikes = (table: Readonly<Record<string, string | undefined>>) =>
  expect(Object.fromEntries(Object.keys(table).map((char) => [char, Sms.lookAlike(char)]))).toStrictEqual(table)

describe("Sms look-alikes", () => {
  it("law: the UCS-2 characters are exactly the non-GSM code points, in order, at their index", () => {
    fc.assert(
      fc.property(smsText, (text) => {
        const chars = [...text]
        const expected = chars.flatMap((char, index) => isGsmOracle(char) ? [] : [{ char, index }])
        expect(Sms.ucs2Characters(text).map(({ char, index }) => ({ char, index }))).toStrictEqual(expected)
      })
    )
  })

  it("law: every suggestion is GSM-7 text (every BMP code point and astral samples)", () => {
    const check = (char: string) => {
      const alike = Sms.lookAlike(char)
      if (alike !== undefined && ![...alike].every(isGsmOracle)) expect.fail(`${char} → ${alike}`)
    }
    for (let c = 0; c <= 0xffff; c++) if (!isLow(c) && !isHigh(c)) check(String.fromCharCode(c))
    fc.assert(fc.property(astralChar, check), { numRuns: 2000 })
  })

  it("law: gsmSafe keeps GSM text, is idempotent, and leaves only characters without a look-alike", () => {
    fc.assert(
      fc.property(smsText, (text) => {
        const safe = Sms.gsmSafe(text)
        if ([...text].every(isGsmOracle)) expect(safe).toBe(text)
        expect(Sms.gsmSafe(safe)).toBe(safe)
        expect(Sms.ucs2Characters(safe).every((c) => c.suggestion === undefined)).toBe(true)
        const allSuggested = Sms.ucs2Characters(text).every((c) => c.suggestion !== undefined)
        expect(Sms.analyze(safe).encoding === "GSM-7").toBe(allSuggested)
      })
    )
  })

  it("curly quotes, dashes and ellipsis become GSM-7", () => {
    const text = "\u201CHello\u201D \u2014 it\u2019s\u00A0here\u2026"
    expect(Sms.analyze(text).encoding).toBe("UCS-2")
    const safe = Sms.gsmSafe(text)
    expect(safe).toBe("\"Hello\" - it's here...")
    expect(Sms.analyze(safe).encoding).toBe("GSM-7")
  })

  it("reports characters with their code-point index and suggestion", () => {
    expect(Sms.ucs2Characters("\u{1F600} a\u2019b \u00E1")).toStrictEqual([
      { char: "\u{1F600}", index: 0 },
      { char: "\u2019", index: 3, suggestion: "'" },
      { char: "\u00E1", index: 6, suggestion: "a" }
    ])
    expect(Sms.ucs2Characters("plain GSM text \u20AC")).toStrictEqual([])
  })

  it("letters: the unaccented base letter, not a differently accented GSM letter", () => {
    expectLookAlikes({
      "\u00E1": "a",
      "\u00E7": "c",
      "\u00EA": "e",
      "\u00C0": "A",
      "\u0142": "l",
      "\u0153": "oe",
      "\u0386": "A",
      "\u212B": "\u00C5",
      "\uFF21": "A",
      "\u00BD": "1/2"
    })
  })

  it("spaces, invisible characters and characters without a look-alike", () => {
    expectLookAlikes({ "\u2003": " ", "\t": " ", "\u200B": "", "\uFE0F": "" })
    expectLookAlikes({ "\u00A8": undefined, "\u{1F600}": undefined, "\u0436": undefined, "\u4E2D": undefined })
    expect(Sms.gsmSafe("\u2764\uFE0F \u2013 ok")).toBe("\u2764 - ok")
  })

  it("a letter and its accent written apart (NFD, as macOS copies text) keep the GSM letter they compose", () => {
    expect(Sms.gsmSafe("cafe\u0301 \u201Cok\u201D")).toBe("caf\u00E9 \"ok\"")
    expect(Sms.gsmSafe("A\u0308rger n\u0303 \u2013")).toBe("\u00C4rger \u00F1 -")
    // Without a GSM letter to compose, the base letter stays and the accent goes.
    expect(Sms.gsmSafe("o\u0302")).toBe("o")
  })
})

describe("Sms arbitraries reach the boundaries", () => {
  it("the text arbitrary yields GSM-7 and UCS-2, single and multipart texts", () => {
    const samples = fc.sample(fc.oneof(gsmText, mixedText), { numRuns: 400, seed: 42 }).map(Sms.analyze)
    expect(samples.some((a) => a.encoding === "GSM-7" && a.segments > 1)).toBe(true)
    expect(samples.some((a) => a.encoding === "UCS-2" && a.segments > 1)).toBe(true)
    expect(samples.some((a) => a.encoding === "UCS-2" && a.segments === 1)).toBe(true)
    expect(samples.some((a) => a.encoding === "GSM-7" && a.segments === 1)).toBe(true)
  })
})
