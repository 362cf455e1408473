/**
 * Hostile text shown safely: no control, bidi or separator character survives `show`, printable text is
 * unchanged, and the escapes say which character it was.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Visible from "../../src/internal/visible.ts"

const hostileChars = [
  ..."\u0000\u0007\u0008\u0009\u000A\u000D\u001B\u007F\u0080\u009B\u009F",
  ..."\u061C\u200E\u200F\u2028\u2029\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069"
]

/** The whole class, written out here as the oracle: C0, DEL and C1 controls, the ALM, direction marks and embeddings, separators. */
const isHostile = (text: string): boolean => /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/.test(text)

describe("Visible.show", () => {
  it("leaves no hostile character, whatever the text", () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.constantFrom(...hostileChars), fc.string({ unit: "binary", maxLength: 4 }))), (parts) => {
      const shown = Visible.show(parts.join(""))
      expect(isHostile(shown)).toBe(false)
      for (const char of hostileChars) expect(shown.includes(char)).toBe(false)
    }))
  })

  it("prints text without hostile characters unchanged", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (text) => {
      fc.pre(!isHostile(text))
      expect(Visible.show(text)).toBe(text)
    }))
  })

  it("shows a terminal title sequence and a colour as escapes", () => {
    expect(Visible.show("Ann\u001B]0;pwned\u0007 \u001B[31mred")).toBe("Ann\\x1b]0;pwned\\x07 \\x1b[31mred")
    expect(Visible.show("abc\u202Edcba")).toBe("abc\\u202edcba")
  })
})
