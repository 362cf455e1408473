import { Result, Schema } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as ExternalId from "../src/ExternalId.ts"

/** Code points, independently of the module: the string iterator walks code points. */
const codePoints = (text: string): number => [...text].length

/** Any text, lone surrogates included (the `binary` unit never produces them, so they are mixed in). */
const anyText = (constraints: { readonly minLength?: number; readonly maxLength?: number }): fc.Arbitrary<string> =>
  fc.string({
    ...constraints,
    unit: fc.oneof(
      { weight: 8, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: fc.constantFrom("\uD800", "\uDFFF", "\uD83D") },
      { weight: 1, arbitrary: fc.constantFrom("👍🏽", "🇬🇧", "e\u0301") }
    )
  })

describe("ExternalId laws", () => {
  it("every text of 1 to 40 code points is accepted unchanged", () => {
    fc.assert(
      fc.property(anyText({ minLength: 1, maxLength: 40 }), (text) => {
        fc.pre(codePoints(text) >= 1 && codePoints(text) <= 40 && text.trim() !== "")
        expect(Result.getOrThrow(ExternalId.parse(text))).toBe(text)
        expect(Result.getOrThrow(Schema.decodeUnknownResult(ExternalId.FromWire)(text))).toBe(text)
        expect(Schema.is(ExternalId.ExternalId)(text)).toBe(true)
      }),
      { numRuns: 500 }
    )
  })

  it("every longer text is refused with its length in code points", () => {
    fc.assert(
      fc.property(anyText({ minLength: 41, maxLength: 200 }), (text) => {
        fc.pre(codePoints(text) > 40)
        const result = ExternalId.parse(text)
        expect(Result.isFailure(result) && result.failure).toMatchObject({
          _tag: "ExternalIdTooLong",
          value: text,
          length: codePoints(text),
          max: 40
        })
        expect(Result.isFailure(Schema.decodeUnknownResult(ExternalId.FromWire)(text))).toBe(true)
        expect(Schema.is(ExternalId.ExternalId)(text)).toBe(false)
      })
    )
  })

  it("length counts code points as the string iterator does", () => {
    fc.assert(
      fc.property(anyText({ maxLength: 60 }), (text) => {
        expect(ExternalId.length(text)).toBe(codePoints(text))
      })
    )
  })

  it("a safe integer becomes its decimal text", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        const expected = Object.is(n, -0) ? "0" : n.toFixed(0)
        expect(Result.getOrThrow(ExternalId.parse(n))).toBe(expected)
        expect(Result.getOrThrow(Schema.decodeUnknownResult(ExternalId.FromWire)(n))).toBe(expected)
      })
    )
  })

  it("any other number is refused as an invalid field", () => {
    const unsafe = fc.oneof(
      fc.double({ noInteger: true }),
      fc.double({ min: 2 ** 53, noNaN: true }),
      fc.double({ max: -(2 ** 53), noNaN: true }),
      fc.constantFrom(Number.NaN, Infinity, -Infinity, 1e21, 1.5, 2 ** 53)
    )
    fc.assert(
      fc.property(unsafe, (n) => {
        const result = ExternalId.parse(n)
        expect(Result.isFailure(result) && result.failure).toMatchObject({ _tag: "InvalidField", field: "id" })
        expect(Result.isFailure(Schema.decodeUnknownResult(ExternalId.FromWire)(n))).toBe(true)
      })
    )
  })

  it("writes an id as its text", () => {
    fc.assert(
      fc.property(fc.oneof(anyText({ minLength: 1, maxLength: 40 }), fc.maxSafeInteger()), (input) => {
        const decoded = ExternalId.parse(input)
        fc.pre(Result.isSuccess(decoded))
        const id = Result.getOrThrow(decoded)
        expect(Schema.encodeSync(ExternalId.FromWire)(id)).toBe(id)
      })
    )
  })
})

describe("ExternalId examples", () => {
  it("reads the spec's sample: a numeric id returned as text", () => {
    expect(Result.getOrThrow(ExternalId.parse(123))).toBe("123")
    expect(Result.getOrThrow(ExternalId.parse(-5))).toBe("-5")
    expect(Result.getOrThrow(ExternalId.parse(-0))).toBe("0")
    expect(Result.getOrThrow(ExternalId.parse(Number.MAX_SAFE_INTEGER))).toBe("9007199254740991")
  })

  it("keeps text exactly, spaces and case included", () => {
    expect(Result.getOrThrow(ExternalId.parse(" Campaign-7 "))).toBe(" Campaign-7 ")
  })

  it("counts characters as code points at the 40 boundary", () => {
    expect(Result.getOrThrow(ExternalId.parse("👍".repeat(40)))).toBe("👍".repeat(40))
    expect(Result.getOrThrow(ExternalId.parse("a".repeat(40)))).toBe("a".repeat(40))
    const result = ExternalId.parse("a".repeat(41))
    expect(Result.isFailure(result) && result.failure).toMatchObject({ _tag: "ExternalIdTooLong", length: 41, max: 40 })
  })

  it("law: a text of white space or invisible characters alone is refused as the empty one is (no anti-spam key)", () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\u00a0", "\u3000", "\u200b", "\u2060", "\ufeff"), minLength: 1, maxLength: 40 }), (blank) => {
      const result = ExternalId.parse(blank)
      expect(Result.isFailure(result) && result.failure).toMatchObject({ _tag: "InvalidField", field: "id", value: blank })
      expect(Schema.is(ExternalId.ExternalId)(blank)).toBe(false)
    }))
  })

  it("refuses the empty text and non-text, non-number values", () => {
    for (const input of ["", null, undefined, true, {}, [], 12n]) {
      const result = ExternalId.parse(input)
      expect(Result.isFailure(result) && result.failure).toMatchObject({ _tag: "InvalidField", field: "id" })
    }
    expect(Result.isFailure(Schema.decodeUnknownResult(ExternalId.FromWire)(""))).toBe(true)
  })

  it("is a Standard Schema", () => {
    expect(ExternalId.ExternalId["~standard"].validate("abc")).toEqual({ value: "abc" })
    expect(ExternalId.ExternalId["~standard"].validate("x".repeat(41))).toHaveProperty("issues")
    expect(ExternalId.ExternalId["~standard"].validate("")).toHaveProperty("issues")
  })
})
