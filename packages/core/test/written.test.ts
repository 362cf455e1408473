/**
 * The common written forms (digits, simple separators, a leading `+`) take a short path past the patterns of
 * extensions, letters and spreadsheet damage: it must read every such text exactly as the full reading does.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Written from "../src/internal/written.ts"

const plainText = fc.stringMatching(/^\+?[0-9 ()\-/.]{1,24}$/)
const nearlyPlain = fc.string({ unit: fc.constantFrom(..."0123456789 ()-/.+#xX;e,\t٣０"), minLength: 1, maxLength: 24 })

describe("reading a written number", () => {
  it("reads digits and simple separators on the short path, as the full reading does", () => {
    fc.assert(
      fc.property(plainText, (text) => {
        const trimmed = text.trim()
        fc.pre(trimmed !== "")
        const plain = Written.readPlain(trimmed)
        expect(plain).not.toBeUndefined()
        expect(plain).toEqual(Written.readAny(trimmed))
      })
    )
  })

  it("leaves every other text to the full reading, and never answers it differently", () => {
    fc.assert(
      fc.property(fc.oneof(nearlyPlain, fc.string({ minLength: 1 })), (text) => {
        const trimmed = text.trim()
        fc.pre(trimmed !== "")
        const plain = Written.readPlain(trimmed)
        if (plain !== undefined) expect(plain).toEqual(Written.readAny(trimmed))
        // So `read`, short path or not, answers every text as the full reading does.
        expect(Written.read(text)).toEqual(Written.readAny(trimmed))
      }),
      { numRuns: 2000 }
    )
  })

  it("reads a number the same with the invisible marks of copied or right-to-left text anywhere in it", () => {
    const marks = ["\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\ufeff"]
    fc.assert(
      fc.property(plainText, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...marks)), { minLength: 1, maxLength: 4 }), (text, inserted) => {
        const trimmed = text.trim()
        fc.pre(trimmed !== "")
        let marked = trimmed
        for (const [at, mark] of inserted) {
          const position = at % (marked.length + 1)
          marked = marked.slice(0, position) + mark + marked.slice(position)
        }
        expect(Written.read(marked)).toEqual(Written.read(trimmed))
      })
    )
  })

  it("reads a number in a spreadsheet's text forms (=\"…\", a leading ') as the number inside", () => {
    fc.assert(
      fc.property(fc.oneof(plainText, nearlyPlain), fc.constantFrom((t: string) => `="${t}"`, (t: string) => `'${t}`, (t: string) => `''${t}`), (text, wrap) => {
        const trimmed = text.trim()
        fc.pre(trimmed !== "" && !trimmed.startsWith("'"))
        expect(Written.read(wrap(text))).toEqual(Written.read(text))
      })
    )
  })

  it("examples: spreadsheet damage on the short path, extensions and letters on the full one", () => {
    expect(Written.read(" 447400123456.0 ")).toBe("not-a-number")
    expect(Written.read("+44 (0) 7400-123.456")).toEqual({ digits: "4407400123456", plus: true, repairs: [] })
    expect(Written.readPlain("07400 123456 x12")).toBeUndefined()
    expect(Written.read("07400 123456 x12")).toMatchObject({ digits: "07400123456", repairs: ["extension-dropped"] })
    expect(Written.read("+")).toBe("too-short")
    expect(Written.read("4.47E+11")).toBe("scientific-notation")
    expect(Written.read('="07400 123456"')).toEqual({ digits: "07400123456", plus: false, repairs: [] })
    expect(Written.read("'+44 7400 123456")).toMatchObject({ digits: "447400123456", plus: true })
    expect(Written.read('="4.47E+11"')).toBe("scientific-notation")
    expect(Written.read('=""')).toBe("empty")
    expect(Written.read('=SUM(A1)')).toBe("not-a-number")
  })

  it("a word set apart after a whole number is no number (never keypad letters); vanity letters after fewer digits", () => {
    // Read on the keypad, `home` made another Austrian number. An import reads such a label apart (phoneCells.ts).
    for (const text of ["0664 123456 home", "030 1234567 (fax)", "01 234567 work", "Mob: 07400 123456"]) {
      expect([text, Written.read(text)]).toEqual([text, "not-a-number"])
    }
    // An extension in brackets or German `App.` is one.
    expect(Written.read("030 123456 (ext 5)")).toMatchObject({ digits: "030123456", repairs: ["extension-dropped"] })
    expect(Written.read("030 12345 App. 12")).toMatchObject({ digits: "03012345", repairs: ["extension-dropped"] })
    expect(Written.read("+1 800 FLOWERS")).toMatchObject({ digits: "18003569377", repairs: ["letters-converted"] })
    expect(Written.read("O7400 123456")).toBe("letter-in-number")
    expect(Written.read("07400123456home")).toMatchObject({ repairs: ["letters-converted"] })
    // Russia's `8~10` (wait for the tone) is its international prefix; a tilde elsewhere is no separator (a range).
    expect(Written.read("8~10 44 7400 123463")).toMatchObject({ digits: "810447400123463" })
    expect(Written.read("0664 123456~8")).toBe("not-a-number")
  })
})
