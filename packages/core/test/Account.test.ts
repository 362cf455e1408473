import { Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Account from "../src/Account.ts"
import * as Sms from "../src/Sms.ts"

/** Short names around the budget's edge: 150–160 characters of ASCII, accents, emoji (one code point, two UTF-16 units). */
const shortName = fc.oneof(
  fc.string({ unit: fc.constantFrom("A", "é", "\u{1F600}", " "), minLength: 150, maxLength: 160 }),
  fc.string({ unit: fc.constantFrom("A", "\u{1F600}", " ", "\t", "\u200b", "\ufeff", "\u3000", "\u3164", "\u034f", "\ufe0f"), maxLength: 8 })
)

/** Blank as core counts it for texts and ids: white space and invisible characters (format or default-ignorable) alone. */
const isBlank = (text: string) => /^[\s\p{Cf}\p{Default_Ignorable_Code_Point}]*$/u.test(text)

/** What acts instead of showing: C0 and C1 controls, DEL, line and paragraph separators, bidi controls. */
const acting = fc.constantFrom("\u0000", "\t", "\n", "\r", "\u001b", "\u007f", "\u0085", "\u009b", "\u2028", "\u2029", "\u202e", "\u2066", "\u061c")

describe("Account.make", () => {
  it("law: a short name, short code or user holding a control, a line break or a bidi control anywhere is refused, naming it", () => {
    const printable = fc.string({ unit: fc.constantFrom("A", "z", "é", "7", " ", "-", "\u{1F600}"), minLength: 1, maxLength: 6 })
    fc.assert(fc.property(fc.constantFrom("short_name", "short_code", "user"), printable, acting, printable, (field, before, char, after) => {
      const made = Account.make({ [field]: `A${before}${char}${after}` })
      expect(Result.isFailure(made) && made.failure.field).toBe(field)
    }))
    fc.assert(fc.property(fc.constantFrom("short_name", "short_code", "user"), printable, (field, text) => {
      expect(Result.isSuccess(Account.make({ [field]: `A${text}` }))).toBe(true)
    }))
  })

  it("law: a short name is taken exactly when it is not blank (no invisible name either) and leaves room for a one-character text after its prefix", () => {
    fc.assert(fc.property(shortName, (short_name) => {
      const made = Account.make({ short_name })
      const fits = Result.isSuccess(Sms.checkBudget(short_name, "x"))
      expect(Result.isSuccess(made)).toBe(!isBlank(short_name) && !short_name.includes("\t") && fits)
      if (Result.isFailure(made)) expect(made.failure.field).toBe("short_name")
    }))
  })

  it("law: a spam period is taken exactly when it is a whole number of seconds ≥ 0", () => {
    fc.assert(fc.property(fc.oneof(fc.integer({ min: -10, max: 10 }), fc.double(), fc.constantFrom(2 ** 53, 86_400.5)), (spam_period_seconds) => {
      const made = Account.make({ spam_period_seconds })
      expect(Result.isSuccess(made)).toBe(Number.isSafeInteger(spam_period_seconds) && spam_period_seconds >= 0)
      if (Result.isFailure(made)) expect(made.failure.field).toBe("spam_period_seconds")
    }))
  })

  it("examples: 157 characters (an emoji counts 1) are the longest short name; the defaults are an account", () => {
    expect(Result.isSuccess(Account.make({ short_name: "\u{1F600}".repeat(157) }))).toBe(true)
    expect(Result.isFailure(Account.make({ short_name: "A".repeat(158) }))).toBe(true)
    expect(Account.make({})).toEqual(Result.succeed(Account.defaults))
    expect(Result.isFailure(Account.make({ time_zone: "+01:00" }))).toBe(true)
    expect(Result.isFailure(Account.make({ short_code: " " }))).toBe(true)
    // A zero-width space shows nothing, yet made every text UCS-2 and prefixed it with an invisible name.
    expect(Result.isFailure(Account.make({ short_name: "\u200b" }))).toBe(true)
    // A Hangul filler is the usual "invisible name" (a letter to Unicode, shown as nothing), as a grapheme joiner is.
    expect(Result.isFailure(Account.make({ short_name: "\u3164" }))).toBe(true)
    expect(Result.isFailure(Account.make({ short_name: "\u034f\ufe0f" }))).toBe(true)
  })
})
