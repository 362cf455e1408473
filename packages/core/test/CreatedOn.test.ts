import { DateTime, Result } from "effect"
import { Results } from "@smsbook/testing"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as CreatedOn from "../src/CreatedOn.ts"

// The oracle is `Intl.DateTimeFormat` asked directly for every instant (slow, uncached), and
// `Date`'s UTC getters for the calendar; src/CreatedOn.ts caches offsets per hour and does its own arithmetic.

const ZONES = ["UTC", "Europe/London", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"] as const
/** The last second whose wall clock is in year 9999 in every zone (offsets stay within ±1 day). */
const LAST_SECOND = Date.UTC(9999, 11, 30, 23, 59, 59) / 1000

const p2 = (n: number) => String(n).padStart(2, "0")

const oracleFormats = new Map<string, Intl.DateTimeFormat>()
const oracleFormat = (timeZone: string): Intl.DateTimeFormat => {
  const known = oracleFormats.get(timeZone)
  if (known !== undefined) return known
  const made = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
  oracleFormats.set(timeZone, made)
  return made
}

/**
 * The zone's offset at the instant as `Intl` names it ("GMT", "GMT+05:30", "GMT-00:01:15" in local mean time):
 * asked for directly, where src/CreatedOn.ts works it out from the wall clock.
 */
const oracleOffset = (timeZone: string, millis: number): number => {
  const name = oracleFormat(timeZone).formatToParts(millis).find((part) => part.type === "timeZoneName")?.value ?? ""
  const match = /^GMT(?:([+-])(\d\d):(\d\d)(?::(\d\d))?)?$/.exec(name)
  if (match === null) throw new Error(`unexpected offset name ${name} in ${timeZone}`)
  const [, sign, hours = "0", minutes = "0", seconds = "0"] = match
  const offset = ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000
  return sign === "-" ? -offset : offset
}

/** The wall clock of the zone at the instant, as UTC-based milliseconds. */
const oracleWall = (timeZone: string, millis: number): number => millis + oracleOffset(timeZone, millis)

const wallText = (wall: number): string => new Date(wall).toISOString().slice(0, 19).replace("T", " ")
const oracleText = (timeZone: string, millis: number): string =>
  wallText(oracleWall(timeZone, Math.floor(millis / 1000) * 1000))

interface Transition {
  readonly zone: string
  readonly at: number
  readonly before: number
  readonly after: number
}

/** Every offset change from 1900 to 2100, found by a weekly scan of the oracle and bisected to the second. */
const transitionsOf = (timeZone: string): ReadonlyArray<Transition> => {
  const found: Array<Transition> = []
  const week = 7 * 86_400_000
  let previous = Date.UTC(1900, 0, 1)
  let previousOffset = oracleOffset(timeZone, previous)
  for (let t = previous + week; t <= Date.UTC(2100, 0, 1); t += week) {
    const offset = oracleOffset(timeZone, t)
    if (offset !== previousOffset) {
      let low = previous
      let high = t
      while (high - low > 1000) {
        const middle = low + Math.floor((high - low) / 2000) * 1000
        if (oracleOffset(timeZone, middle) === previousOffset) low = middle
        else high = middle
      }
      found.push({ zone: timeZone, at: high, before: previousOffset, after: oracleOffset(timeZone, high) })
    }
    previous = t
    previousOffset = offset
  }
  return found
}

const transitions = ZONES.flatMap(transitionsOf)
const forward = transitions.filter((t) => t.after > t.before)
const backward = transitions.filter((t) => t.after < t.before)

const zoneOf = (name: string): CreatedOn.Zone => Result.getOrThrow(CreatedOn.zone(name))

/** An instant in whole seconds: anywhere in 1970–9999 (local years stay four-digit), or within three hours of an offset change. */
const instant = fc.oneof(
  fc.tuple(fc.constantFrom(...ZONES), fc.integer({ min: 0, max: LAST_SECOND }).map((s) => s * 1000)),
  fc.tuple(fc.constantFrom(...transitions), fc.integer({ min: -3 * 3600, max: 3 * 3600 })).map(
    ([t, delta]) => [t.zone, t.at + delta * 1000] as const
  )
)

const millisOf = (result: Result.Result<DateTime.Utc, unknown>): number => DateTime.toEpochMillis(Results.success(result))

const reasonOf = (result: Result.Result<DateTime.Utc, { readonly reason: string }>): string => Results.failure(result).reason

describe("CreatedOn laws", () => {
  it("the test's transition scan found DST changes in every zone that has them", () => {
    for (const zone of ["Europe/London", "America/New_York", "Australia/Lord_Howe"]) {
      expect(forward.some((t) => t.zone === zone)).toBe(true)
      expect(backward.some((t) => t.zone === zone)).toBe(true)
    }
    expect(transitions.some((t) => t.zone === "Australia/Lord_Howe" && Math.abs(t.after - t.before) === 1_800_000)).toBe(true)
  })

  it("format is the zone's wall clock as Intl reads it, for every second of 1970–9999 and around every change", () => {
    fc.assert(
      fc.property(instant, ([zone, millis]) => {
        expect(CreatedOn.format(DateTime.makeUnsafe(millis), zone)).toBe(oracleText(zone, millis))
        expect(zoneOf(zone).offsetAt(millis)).toBe(oracleOffset(zone, millis))
      }),
      { numRuns: 3000 }
    )
  })

  it("format truncates milliseconds", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: 0, max: LAST_SECOND * 1000 + 999 }), (zone, millis) => {
        expect(CreatedOn.format(DateTime.makeUnsafe(millis), zone)).toBe(
          CreatedOn.format(DateTime.makeUnsafe(Math.floor(millis / 1000) * 1000), zone)
        )
      })
    )
  })

  it("parse(format(d)) = d, except in a repeated hour where it is the earlier instant showing the same text", () => {
    fc.assert(
      fc.property(instant, ([zone, millis]) => {
        const text = CreatedOn.format(DateTime.makeUnsafe(millis), zone)
        const parsed = millisOf(CreatedOn.parse(text, zone))
        expect(CreatedOn.format(DateTime.makeUnsafe(parsed), zone)).toBe(text)
        if (parsed !== millis) {
          // d lies in the second pass of a fall-back overlap: the parsed instant is the first pass,
          // earlier by exactly the size of the change
          const shift = oracleOffset(zone, parsed) - oracleOffset(zone, millis)
          expect(shift).toBeGreaterThan(0)
          expect(millis - parsed).toBe(shift)
        } else {
          // and when d is the first pass, no earlier instant shows the same text
          const earlierOffsets = new Set([oracleOffset(zone, millis - 86_400_000), oracleOffset(zone, millis)])
          for (const offset of earlierOffsets) {
            const other = millis + oracleOffset(zone, millis) - offset
            if (other < millis) expect(oracleText(zone, other)).not.toBe(text)
          }
        }
      }),
      { numRuns: 3000 }
    )
  })

  it("a wall time skipped by a forward change is refused", () => {
    fc.assert(
      fc.property(fc.constantFrom(...forward), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (t, where) => {
        const wall = t.at + t.before + Math.floor((where * (t.after - t.before)) / 1000) * 1000
        expect(reasonOf(CreatedOn.parse(wallText(wall), t.zone))).toMatch(/does not exist in .*the clocks skipped it/)
      })
    )
  })

  it("a wall time shown twice by a backward change is the earlier instant", () => {
    fc.assert(
      fc.property(fc.constantFrom(...backward), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (t, where) => {
        const wall = t.at + t.after + Math.floor((where * (t.before - t.after)) / 1000) * 1000
        expect(millisOf(CreatedOn.parse(wallText(wall), t.zone))).toBe(wall - t.before)
      })
    )
  })

  it("a day that does not exist in its month is refused, in any zone", () => {
    const impossible = fc
      .tuple(fc.integer({ min: 1000, max: 9999 }), fc.integer({ min: 0, max: 11 }), fc.integer({ min: 0, max: 3 }))
      .map(([year, month, extra]) => ({ year, month, day: new Date(Date.UTC(year, month + 1, 0)).getUTCDate() + 1 + extra }))
      .filter(({ day }) => day <= 31)
    fc.assert(
      fc.property(impossible, fc.constantFrom(...ZONES), ({ year, month, day }, zone) => {
        const date = `${year}-${p2(month + 1)}-${p2(day)}`
        expect(reasonOf(CreatedOn.parse(`${date} 12:00:00`, zone))).toBe(`no such day: ${date}`)
      })
    )
  })

  it("every zone the runtime knows is accepted and formats as Intl does", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Intl.supportedValuesOf("timeZone")),
        fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) / 1000 }),
        (name, second) => {
          expect(CreatedOn.format(DateTime.makeUnsafe(second * 1000), zoneOf(name))).toBe(oracleText(name, second * 1000))
        }
      )
    )
  })

  it("only the exact shape parses", () => {
    const almost = fc.oneof(
      fc.stringMatching(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z?$/),
      fc.stringMatching(/^\s?\d{1,5}-\d{1,3}-\d{1,3} \d{1,3}:\d{1,3}:\d{1,3}\s?$/),
      fc.string()
    )
    fc.assert(
      fc.property(almost, (text) => {
        const result = CreatedOn.parse(text, CreatedOn.utc)
        if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) {
          expect(reasonOf(result)).toBe("expected exactly YYYY-MM-DD HH:MM:SS, e.g. 2026-11-21 10:15:00")
        } else if (Result.isSuccess(result)) {
          expect(CreatedOn.format(result.success, CreatedOn.utc)).toBe(text)
        }
      })
    )
  })
})

describe("CreatedOn examples", () => {
  it("formats in the account's zone", () => {
    const d = DateTime.makeUnsafe(Date.UTC(2026, 10, 21, 10, 15))
    expect(CreatedOn.format(d, CreatedOn.utc)).toBe("2026-11-21 10:15:00")
    expect(CreatedOn.format(d, "UTC")).toBe("2026-11-21 10:15:00")
    expect(CreatedOn.format(d, "America/New_York")).toBe("2026-11-21 05:15:00")
    expect(CreatedOn.format(d, "Asia/Kolkata")).toBe("2026-11-21 15:45:00")
    expect(CreatedOn.format(d, "Australia/Lord_Howe")).toBe("2026-11-21 21:15:00")
    expect(CreatedOn.format(DateTime.makeUnsafe(Date.UTC(2026, 6, 1, 10, 15)), "Europe/London")).toBe("2026-07-01 11:15:00")
  })

  it("parses in the account's zone", () => {
    expect(millisOf(CreatedOn.parse("2026-11-21 10:15:00", "UTC"))).toBe(Date.UTC(2026, 10, 21, 10, 15))
    expect(millisOf(CreatedOn.parse("2026-11-21 15:45:00", "Asia/Kolkata"))).toBe(Date.UTC(2026, 10, 21, 10, 15))
    expect(millisOf(CreatedOn.parse("2026-07-01 11:15:00", zoneOf("Europe/London")))).toBe(Date.UTC(2026, 6, 1, 10, 15))
  })

  it("London's fall-back hour reads as BST (the earlier instant); its spring gap is refused", () => {
    expect(millisOf(CreatedOn.parse("2026-10-25 01:30:00", "Europe/London"))).toBe(Date.UTC(2026, 9, 25, 0, 30))
    expect(CreatedOn.format(DateTime.makeUnsafe(Date.UTC(2026, 9, 25, 1, 30)), "Europe/London")).toBe("2026-10-25 01:30:00")
    expect(reasonOf(CreatedOn.parse("2026-03-29 01:30:00", "Europe/London"))).toBe(
      "2026-03-29 01:30:00 does not exist in Europe/London: the clocks skipped it (daylight-saving change)"
    )
    expect(millisOf(CreatedOn.parse("2026-03-29 02:00:00", "Europe/London"))).toBe(Date.UTC(2026, 2, 29, 1))
  })

  it("Lord Howe's half-hour change", () => {
    // DST ends 2026-04-05 02:00 (+11) → 01:30 (+10:30): 01:30–01:59 happen twice
    expect(millisOf(CreatedOn.parse("2026-04-05 01:45:00", "Australia/Lord_Howe"))).toBe(Date.UTC(2026, 3, 4, 14, 45))
  })

  it("refuses impossible dates and times", () => {
    expect(reasonOf(CreatedOn.parse("2026-04-31 10:00:00", "UTC"))).toBe("no such day: 2026-04-31")
    expect(reasonOf(CreatedOn.parse("2026-02-29 10:00:00", "UTC"))).toBe("no such day: 2026-02-29")
    expect(millisOf(CreatedOn.parse("2024-02-29 10:00:00", "UTC"))).toBe(Date.UTC(2024, 1, 29, 10))
    expect(reasonOf(CreatedOn.parse("2026-13-01 10:00:00", "UTC"))).toBe("no such month: 13 (months run 01–12)")
    expect(reasonOf(CreatedOn.parse("2026-11-21 24:00:00", "UTC"))).toBe("no such time: 24:00:00 (hours run 00–23)")
    expect(reasonOf(CreatedOn.parse("2026-11-21 10:60:00", "UTC"))).toBe("no such time: 10:60:00 (minutes run 00–59)")
    expect(reasonOf(CreatedOn.parse("2016-12-31 23:59:60", "UTC"))).toBe(
      "leap second 23:59:60 is not accepted (seconds run 00–59)"
    )
    expect(reasonOf(CreatedOn.parse("2026-11-21T10:15:00", "UTC"))).toMatch(/^expected exactly/)
    expect(reasonOf(CreatedOn.parse("2026-11-21 10:15", "UTC"))).toMatch(/^expected exactly/)
  })

  it("validates zone names", () => {
    expect(zoneOf("Europe/London").id).toBe("Europe/London")
    expect(zoneOf("europe/london").id).toBe("Europe/London")
    expect(zoneOf("Asia/Kolkata").id).toBe("Asia/Kolkata")
    expect(zoneOf("Asia/Calcutta").offsetAt).toBe(zoneOf("Asia/Kolkata").offsetAt)
    expect(zoneOf("UTC")).toBe(zoneOf("UTC"))
    for (const bad of ["Nope/Zone", "+01:00", "", "5"]) {
      const result = CreatedOn.zone(bad)
      expect(Result.isFailure(result)).toBe(true)
      if (Result.isFailure(result)) {
        expect(result.failure._tag).toBe("InvalidField")
        expect(result.failure.field).toBe("time_zone")
        expect(result.failure.value).toBe(bad)
      }
    }
    expect(reasonOf(CreatedOn.parse("2026-11-21 10:15:00", "Nope/Zone"))).toBe("unknown time zone \"Nope/Zone\"")
    expect(() => CreatedOn.format(DateTime.makeUnsafe(0), "Nope/Zone")).toThrow()
  })
})
