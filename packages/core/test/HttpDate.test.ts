/**
 * Laws and examples of HTTP-date: the three RFC 9110 forms, zones, impossible dates and signed years refused,
 * format∘parse round trips. Over 400 lines: one grammar, its property and its example tables read together.
 */
import { DateTime, Result, Schema } from "effect"
import { Results } from "@smsbook/testing"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as HttpDate from "../src/HttpDate.ts"

// Oracles are spelled here independently of src/HttpDate.ts: texts are built from `Date`'s UTC getters
// (whose arithmetic is correct for valid instants; only `Date.parse` is the untrustworthy part).

const SHORT_DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const
const LONG_DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const
const US_ZONES = { EST: -300, EDT: -240, CST: -360, CDT: -300, MST: -420, MDT: -360, PST: -480, PDT: -420 } as const

/** 1970-01-01T00:00:00Z … 9999-12-31T23:59:59Z in whole seconds. */
const LAST_SECOND = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000
const anySecond = fc.integer({ min: 0, max: LAST_SECOND })
/** Two-digit years resolve to 1976–2075 with the default pivot. */
const pivotWindowSecond = fc.integer({ min: Date.UTC(1976, 0, 1) / 1000, max: Date.UTC(2075, 11, 31, 23, 59, 59) / 1000 })

const p2 = (n: number) => String(n).padStart(2, "0")

interface Fields {
  readonly weekday: number
  readonly day: number
  readonly month: number
  readonly year: number
  readonly time: string
}

const fieldsOf = (millis: number): Fields => {
  const date = new Date(millis)
  return {
    weekday: date.getUTCDay(),
    day: date.getUTCDate(),
    month: date.getUTCMonth(),
    year: date.getUTCFullYear(),
    time: `${p2(date.getUTCHours())}:${p2(date.getUTCMinutes())}:${p2(date.getUTCSeconds())}`
  }
}

const imf = (f: Fields, zone = "GMT", weekday = f.weekday) =>
  `${SHORT_DAYS[weekday]}, ${p2(f.day)} ${MONTHS[f.month]} ${String(f.year).padStart(4, "0")} ${f.time} ${zone}`
const rfc850 = (f: Fields, weekday = f.weekday) =>
  `${LONG_DAYS[weekday]}, ${p2(f.day)}-${MONTHS[f.month]}-${p2(f.year % 100)} ${f.time} GMT`
const asctime = (f: Fields, weekday = f.weekday) =>
  `${SHORT_DAYS[weekday]} ${MONTHS[f.month]} ${String(f.day).padStart(2, " ")} ${f.time} ${f.year}`

const millisOf = (result: Result.Result<DateTime.Utc, unknown>): number => DateTime.toEpochMillis(Results.success(result))

const reasonOf = (result: Result.Result<DateTime.Utc, { readonly reason: string }>): string => Results.failure(result).reason

const utc = (millis: number) => DateTime.makeUnsafe(millis)

describe("HttpDate laws", () => {
  it("parse(format(d)) = d for every second of 1970–9999, and format agrees with Date#toUTCString", () => {
    fc.assert(
      fc.property(anySecond, (second) => {
        const text = HttpDate.format(utc(second * 1000))
        expect(text).toBe(new Date(second * 1000).toUTCString())
        expect(millisOf(HttpDate.parse(text))).toBe(second * 1000)
      }),
      { numRuns: 2000 }
    )
  })

  it("format drops milliseconds towards the past", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: LAST_SECOND * 1000 + 999 }), (millis) => {
        expect(millisOf(HttpDate.parse(HttpDate.format(utc(millis))))).toBe(Math.floor(millis / 1000) * 1000)
      })
    )
  })

  it("the IMF-fixdate, RFC 850 and asctime forms of one instant parse equal", () => {
    fc.assert(
      fc.property(pivotWindowSecond, (second) => {
        const f = fieldsOf(second * 1000)
        expect(millisOf(HttpDate.parse(imf(f)))).toBe(second * 1000)
        expect(millisOf(HttpDate.parse(rfc850(f)))).toBe(second * 1000)
        expect(millisOf(HttpDate.parse(asctime(f)))).toBe(second * 1000)
      }),
      { numRuns: 1000 }
    )
  })

  it("a two-digit year is the latest year with those digits not more than 50 years after now (RFC 9110)", () => {
    const lastNow = Date.UTC(9000, 0, 1) / 1000
    fc.assert(
      fc.property(fc.integer({ min: 0, max: lastNow }), fc.double({ min: 0, max: 1, noNaN: true }), (nowSecond, where) => {
        const limit = new Date(nowSecond * 1000)
        limit.setUTCFullYear(limit.getUTCFullYear() + 50)
        const floor = new Date(nowSecond * 1000)
        floor.setUTCFullYear(floor.getUTCFullYear() - 50)
        // stay two days inside the 100-year window: calendar years differ in length at its ends
        const low = floor.getTime() + 2 * 86_400_000
        const high = limit.getTime()
        const instant = Math.floor((low + where * (high - low)) / 1000) * 1000
        const text = rfc850(fieldsOf(instant))
        expect(millisOf(HttpDate.parse(text, { now: utc(nowSecond * 1000) }))).toBe(instant)
      })
    )
  })

  it("a weekday that does not match the date is always refused, in every form", () => {
    fc.assert(
      fc.property(pivotWindowSecond, fc.integer({ min: 1, max: 6 }), (second, shift) => {
        const f = fieldsOf(second * 1000)
        const wrong = (f.weekday + shift) % 7
        for (const text of [imf(f, "GMT", wrong), rfc850(f, wrong), asctime(f, wrong)]) {
          expect(reasonOf(HttpDate.parse(text))).toBe(
            `weekday ${SHORT_DAYS[wrong]} does not match ${f.year}-${p2(f.month + 1)}-${p2(f.day)} (${SHORT_DAYS[f.weekday]})`
          )
        }
      })
    )
  })

  it("a numeric offset form is the UTC instant shifted by the offset", () => {
    const oneDay = 86_400
    const offsetMinutes = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 })
    fc.assert(
      fc.property(
        fc.integer({ min: oneDay, max: LAST_SECOND - oneDay }),
        offsetMinutes,
        fc.constantFrom("+hhmm", "+hh:mm"),
        (second, offset, style) => {
          const abs = Math.abs(offset)
          const zone = `${offset < 0 ? "-" : "+"}${p2(Math.floor(abs / 60))}${style === "+hh:mm" ? ":" : ""}${p2(abs % 60)}`
          const local = fieldsOf((second + offset * 60) * 1000)
          expect(millisOf(HttpDate.parse(imf(local, zone)))).toBe(second * 1000)
        }
      ),
      { numRuns: 1000 }
    )
  })

  it("the RFC 2822 US zones are their fixed offsets", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 86_400, max: LAST_SECOND - 86_400 }),
        fc.constantFrom(...(Object.keys(US_ZONES) as Array<keyof typeof US_ZONES>)),
        (second, zone) => {
          const local = fieldsOf((second + US_ZONES[zone] * 60) * 1000)
          expect(millisOf(HttpDate.parse(imf(local, zone)))).toBe(second * 1000)
        }
      )
    )
  })

  it("case, whitespace runs and a day without its leading zero do not matter", () => {
    const space = fc.constantFrom(" ", "  ", "\t", " \t ")
    fc.assert(
      fc.property(
        anySecond,
        fc.array(space, { minLength: 5, maxLength: 5 }),
        fc.constantFrom("", " ", "\n"),
        fc.boolean(),
        fc.constantFrom("GMT", "UTC", "UT", "Z"),
        (second, spaces, edge, dropZero, zone) => {
          const f = fieldsOf(second * 1000)
          const tokens = [
            `${SHORT_DAYS[f.weekday]},`,
            dropZero ? String(f.day) : p2(f.day),
            MONTHS[f.month] ?? "",
            String(f.year).padStart(4, "0"),
            f.time,
            zone
          ]
          const text = edge + tokens.reduce((acc, token, i) => acc + (spaces[i - 1] ?? " ") + token) + edge
          for (const variant of [text, text.toLowerCase(), text.toUpperCase()]) {
            expect(millisOf(HttpDate.parse(variant))).toBe(second * 1000)
          }
        }
      )
    )
  })

  it("a day that does not exist in its month is refused", () => {
    const impossible = fc
      .tuple(fc.integer({ min: 100, max: 9999 }), fc.integer({ min: 0, max: 11 }), fc.integer({ min: 0, max: 3 }))
      .map(([year, month, extra]) => {
        const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
        return { year, month, day: last + 1 + extra }
      })
      .filter(({ day }) => day <= 31)
    fc.assert(
      fc.property(impossible, fc.integer({ min: 0, max: 6 }), ({ year, month, day }, weekday) => {
        const text = `${SHORT_DAYS[weekday]}, ${day} ${MONTHS[month]} ${String(year).padStart(4, "0")} 10:00:00 GMT`
        expect(reasonOf(HttpDate.parse(text))).toBe(`no such day: ${day} ${MONTHS[month]} ${String(year).padStart(4, "0")}`)
      })
    )
  })

  it("an hour over 23, a minute over 59 or a second over 59 is refused", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.tuple(fc.integer({ min: 24, max: 99 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 })),
          fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 60, max: 99 }), fc.integer({ min: 0, max: 59 })),
          fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 60, max: 99 }))
        ),
        ([hour, minute, second]) => {
          const text = `Sat, 21 Nov 2026 ${p2(hour)}:${p2(minute)}:${p2(second)} GMT`
          expect(reasonOf(HttpDate.parse(text))).toMatch(/^(no such time|leap second)/)
        }
      )
    )
  })

  it("a signed or malformed year is refused in every form, never read as another year", () => {
    // Each spoils the date's own year, so the weekday still matches what a reader that drops the damage would see.
    const malformed = fc.oneof(
      fc.constantFrom("-", "+", "\u2212", "--", "- ").map((sign) => (year: string) => sign + year),
      fc.constantFrom(".0", "a", "e3", ",5", "_", "\u0662", "0").map((tail) => (year: string) => year + tail),
      fc.constant((year: string) => year.slice(1))
    )
    fc.assert(
      fc.property(anySecond, malformed, (second, spoil) => {
        const f = fieldsOf(second * 1000)
        const year = spoil(String(f.year).padStart(4, "0"))
        const day = `${SHORT_DAYS[f.weekday]}, ${p2(f.day)}`
        for (
          const text of [
            `${day} ${MONTHS[f.month]} ${year} ${f.time} GMT`,
            `${day}-${MONTHS[f.month]}-${year} ${f.time} GMT`,
            `${SHORT_DAYS[f.weekday]} ${MONTHS[f.month]} ${String(f.day).padStart(2, " ")} ${f.time} ${year}`
          ]
        ) {
          expect(Result.isFailure(HttpDate.parse(text))).toBe(true)
        }
      })
    )
  })

  it("parse never throws, whatever the text", () => {
    const noise = fc.oneof(
      fc.string(),
      fc.stringMatching(/^[A-Za-z]{0,9},? ?\d{0,3}[ -]?[A-Za-z]{0,4}[ -]?\d{0,5} \d{0,3}:\d{0,3}:\d{0,3} ?[A-Z+-]{0,4}\d{0,4}$/)
    )
    fc.assert(
      fc.property(noise, (text) => {
        const result = HttpDate.parse(text)
        if (Result.isSuccess(result)) {
          // whatever parses names a real instant, which formats and parses back to itself
          expect(millisOf(HttpDate.parse(HttpDate.format(result.success)))).toBe(DateTime.toEpochMillis(result.success))
        }
      }),
      { numRuns: 2000 }
    )
  })
})

describe("HttpDate.parseFlexible laws", () => {
  it("reads Date#toISOString of every millisecond of 1970–9999", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: LAST_SECOND * 1000 + 999 }), (millis) => {
        expect(millisOf(HttpDate.parseFlexible(new Date(millis).toISOString()))).toBe(millis)
      })
    )
  })

  it("reads `YYYY-MM-DD HH:MM:SS` as UTC and `YYYY-MM-DD` as the start of that UTC day", () => {
    fc.assert(
      fc.property(anySecond, (second) => {
        const iso = new Date(second * 1000).toISOString()
        expect(millisOf(HttpDate.parseFlexible(`${iso.slice(0, 10)} ${iso.slice(11, 19)}`))).toBe(second * 1000)
        expect(millisOf(HttpDate.parseFlexible(iso.slice(0, 10)))).toBe(Math.floor(second / 86_400) * 86_400_000)
      })
    )
  })

  it("reads an ISO offset as a shift of the UTC instant", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 86_400, max: LAST_SECOND - 86_400 }),
        fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
        (second, offset) => {
          const abs = Math.abs(offset)
          const zone = `${offset < 0 ? "-" : "+"}${p2(Math.floor(abs / 60))}:${p2(abs % 60)}`
          const local = new Date((second + offset * 60) * 1000).toISOString().slice(0, 19)
          expect(millisOf(HttpDate.parseFlexible(local + zone))).toBe(second * 1000)
        }
      )
    )
  })

  it("agrees with parse on HTTP-dates", () => {
    fc.assert(
      fc.property(pivotWindowSecond, (second) => {
        const f = fieldsOf(second * 1000)
        for (const text of [imf(f), rfc850(f), asctime(f)]) {
          expect(millisOf(HttpDate.parseFlexible(text))).toBe(second * 1000)
        }
      })
    )
  })
})

describe("HttpDate examples", () => {
  it("reads the interface's sample", () => {
    expect(millisOf(HttpDate.parse("Sat, 21 Nov 2026 10:15:00 GMT"))).toBe(Date.UTC(2026, 10, 21, 10, 15))
  })

  it("reads RFC 9110's example in all three forms", () => {
    const expected = Date.UTC(1994, 10, 6, 8, 49, 37)
    expect(millisOf(HttpDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"))).toBe(expected)
    expect(millisOf(HttpDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"))).toBe(expected)
    expect(millisOf(HttpDate.parse("Sun Nov  6 08:49:37 1994"))).toBe(expected)
    expect(HttpDate.format(utc(expected))).toBe("Sun, 06 Nov 1994 08:49:37 GMT")
  })

  it("refuses a signed year instead of dropping its sign", () => {
    for (
      const text of [
        "Sat, 21 Nov -2026 10:15:00 GMT",
        "Sat, 21 Nov +2026 10:15:00 GMT",
        "Sat, 21-Nov--2026 10:15:00 GMT",
        "Sat, 21 Nov - 2026 10:15:00 GMT",
        "Sat Nov 21 10:15:00 -2026",
        "Sat, 21 Nov 20266 10:15:00 GMT"
      ]
    ) {
      expect(Result.isFailure(HttpDate.parse(text))).toBe(true)
    }
    expect(millisOf(HttpDate.parse("Sat, 21-Nov-2026 10:15:00 GMT"))).toBe(Date.UTC(2026, 10, 21, 10, 15))
  })

  it("refuses 31 April", () => {
    expect(reasonOf(HttpDate.parse("Thu, 31 Apr 2026 10:15:00 GMT"))).toBe("no such day: 31 Apr 2026")
    expect(reasonOf(HttpDate.parse("Sun, 29 Feb 2026 10:15:00 GMT"))).toBe("no such day: 29 Feb 2026")
    expect(millisOf(HttpDate.parse("Thu, 29 Feb 2024 10:15:00 GMT"))).toBe(Date.UTC(2024, 1, 29, 10, 15))
  })

  it("refuses a wrong weekday and says which is right", () => {
    expect(reasonOf(HttpDate.parse("Fri, 21 Nov 2026 10:15:00 GMT"))).toBe(
      "weekday Fri does not match 2026-11-21 (Sat)"
    )
    expect(reasonOf(HttpDate.parse("Sat, 20 Nov 2026 10:15:00 GMT"))).toBe(
      "weekday Sat does not match 2026-11-20 (Fri)"
    )
  })

  it("reads EST as five hours behind UTC, and the other zones", () => {
    const gmt = Date.UTC(2026, 10, 21, 10, 15)
    expect(millisOf(HttpDate.parse("Sat, 21 Nov 2026 10:15:00 EST"))).toBe(gmt + 5 * 3_600_000)
    expect(millisOf(HttpDate.parse("Sat, 21 Nov 2026 10:15:00 PDT"))).toBe(gmt + 7 * 3_600_000)
    expect(millisOf(HttpDate.parse("Sat, 21 Nov 2026 10:15:00 +0100"))).toBe(gmt - 3_600_000)
    expect(millisOf(HttpDate.parse("Sat, 21 Nov 2026 10:15:00 -05:30"))).toBe(gmt + 5.5 * 3_600_000)
    expect(millisOf(HttpDate.parse("Sat, 21 Nov 2026 10:15:00 +01"))).toBe(gmt - 3_600_000)
    expect(millisOf(HttpDate.parse("Sat, 21 Nov 2026 10:15:00 UTC"))).toBe(gmt)
    expect(millisOf(HttpDate.parse("Sat, 21 Nov 2026 10:15:00 Z"))).toBe(gmt)
  })

  it("reads a day without its leading zero, any case, extra spaces", () => {
    expect(millisOf(HttpDate.parse("  sun,  1   NOV 2026 10:15:00   gmt "))).toBe(Date.UTC(2026, 10, 1, 10, 15))
  })

  it("says what is wrong", () => {
    expect(reasonOf(HttpDate.parse("Sat, 21 Nov 2026 10:15:00 XYZ"))).toMatch(/^unknown zone XYZ/)
    expect(reasonOf(HttpDate.parse("Sat, 21 Nov 2026 10:15:00 +2400"))).toMatch(/out of range/)
    expect(reasonOf(HttpDate.parse("Sat, 21 Nov 2026 10:15:00"))).toBe("missing zone (e.g. GMT)")
    expect(reasonOf(HttpDate.parse("Sat, 21 Foo 2026 10:15:00 GMT"))).toMatch(/^unknown month Foo/)
    expect(reasonOf(HttpDate.parse("Sta, 21 Nov 2026 10:15:00 GMT"))).toMatch(/^unknown weekday Sta/)
    expect(reasonOf(HttpDate.parse("Sat, 21 Nov 202 10:15:00 GMT"))).toMatch(/^year 202 must have 4 digits/)
    expect(reasonOf(HttpDate.parse("2026-11-21"))).toMatch(/^expected e\.g\. "Sat, 21 Nov 2026 10:15:00 GMT"/)
    expect(reasonOf(HttpDate.parse("Sat, 21 Nov 2026 24:00:00 GMT"))).toBe("no such time: 24:00:00 (hours run 00–23)")
    expect(reasonOf(HttpDate.parse("Sat, 21 Nov 2026 10:60:00 GMT"))).toBe("no such time: 10:60:00 (minutes run 00–59)")
  })

  it("refuses a leap second", () => {
    expect(reasonOf(HttpDate.parse("Wed, 31 Dec 2008 23:59:60 GMT"))).toBe(
      "leap second 23:59:60 is not accepted (seconds run 00–59)"
    )
  })

  it("does not accept what Date.parse accepts", () => {
    for (const text of ["Thu, 31 Apr 2026 10:15:00 GMT", "Sat, 21 Nov 2026 24:00:00 GMT", "21 Nov 2026", "Sat, 21 Nov 2026 10:15 GMT"]) {
      expect(Number.isNaN(Date.parse(text))).toBe(false)
      expect(Result.isFailure(HttpDate.parse(text))).toBe(true)
    }
  })

  it("resolves two-digit years against a fixed pivot unless told now", () => {
    expect(millisOf(HttpDate.parse("Tuesday, 01-Jan-75 00:00:00 GMT"))).toBe(Date.UTC(2075, 0, 1))
    expect(millisOf(HttpDate.parse("Thursday, 01-Jan-76 00:00:00 GMT"))).toBe(Date.UTC(1976, 0, 1))
    const now = utc(Date.UTC(2090, 5, 1))
    expect(millisOf(HttpDate.parse("Saturday, 01-Jan-35 00:00:00 GMT", { now }))).toBe(Date.UTC(2135, 0, 1))
    expect(millisOf(HttpDate.parse("Wednesday, 01-Jan-76 00:00:00 GMT", { now }))).toBe(Date.UTC(2076, 0, 1))
  })

  it("formats years before 1000 with four digits", () => {
    expect(HttpDate.format(utc(-59_011_459_200_000))).toBe("Fri, 01 Jan 0100 00:00:00 GMT")
    expect(millisOf(HttpDate.parse("Sat, 01 Jan 0000 00:00:00 GMT"))).toBe(-62_167_219_200_000)
  })
})

describe("HttpDate.parseFlexible examples", () => {
  it("reads ISO 8601 dates and date-times", () => {
    expect(millisOf(HttpDate.parseFlexible("2026-11-21"))).toBe(Date.UTC(2026, 10, 21))
    expect(millisOf(HttpDate.parseFlexible("2026-11-21T10:15:00Z"))).toBe(Date.UTC(2026, 10, 21, 10, 15))
    expect(millisOf(HttpDate.parseFlexible("2026-11-21 10:15:00"))).toBe(Date.UTC(2026, 10, 21, 10, 15))
    expect(millisOf(HttpDate.parseFlexible("2026-11-21T10:15"))).toBe(Date.UTC(2026, 10, 21, 10, 15))
    expect(millisOf(HttpDate.parseFlexible("2026-11-21T10:15:00.5+01:00"))).toBe(Date.UTC(2026, 10, 21, 9, 15, 0, 500))
    expect(millisOf(HttpDate.parseFlexible("Sat, 21 Nov 2026 10:15:00 GMT"))).toBe(Date.UTC(2026, 10, 21, 10, 15))
  })

  it("is as strict as parse", () => {
    expect(reasonOf(HttpDate.parseFlexible("2026-04-31"))).toBe("no such day: 31 Apr 2026")
    expect(reasonOf(HttpDate.parseFlexible("2026-13-01"))).toMatch(/^no such month/)
    expect(reasonOf(HttpDate.parseFlexible("2026-11-21T24:00:00Z"))).toMatch(/^no such time/)
    expect(reasonOf(HttpDate.parseFlexible("2026-11-21T10:15:00+25:00"))).toMatch(/out of range/)
    expect(reasonOf(HttpDate.parseFlexible("2026-11"))).toMatch(/^expected an HTTP-date .* or ISO 8601/)
    expect(reasonOf(HttpDate.parseFlexible("yesterday"))).toMatch(/^expected an HTTP-date .* or ISO 8601/)
    expect(reasonOf(HttpDate.parseFlexible("Fri, 21 Nov 2026 10:15:00 GMT"))).toMatch(/^weekday Fri/)
  })
})

describe("HttpDate.HttpDateFromString", () => {
  it("decodes with parse and encodes with format", () => {
    const decoded = Schema.decodeUnknownSync(HttpDate.HttpDateFromString)("Sunday, 06-Nov-94 08:49:37 GMT")
    expect(DateTime.toEpochMillis(decoded)).toBe(Date.UTC(1994, 10, 6, 8, 49, 37))
    expect(Schema.encodeSync(HttpDate.HttpDateFromString)(decoded)).toBe("Sun, 06 Nov 1994 08:49:37 GMT")
  })

  it("refuses with the parser's reason", () => {
    const result = Schema.decodeUnknownResult(HttpDate.HttpDateFromString)("Fri, 21 Nov 2026 10:15:00 GMT")
    expect(Result.isFailure(result)).toBe(true)
    if (Result.isFailure(result)) expect(result.failure.message).toContain("weekday Fri does not match 2026-11-21 (Sat)")
    expect(Result.isFailure(Schema.decodeUnknownResult(HttpDate.HttpDateFromString)(42))).toBe(true)
  })
})
