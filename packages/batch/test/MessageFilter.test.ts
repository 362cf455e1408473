/**
 * The message filter flags read into `GET /messages` parameters: dates in the account's time zone
 * unless they carry an offset, a date alone is a whole day, and refusals name the flag.
 */
import { DateTime, Effect, Option, Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as MessageFilter from "../src/MessageFilter.ts"

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runSync(Effect.result(effect))

const day = fc.date({ min: new Date("1971-01-01T00:00:00Z"), max: new Date("2999-12-31T00:00:00Z"), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10))
const zones = fc.constantFrom("UTC", "Europe/London", "America/New_York", "Asia/Kolkata", "Pacific/Auckland", "America/Sao_Paulo")

/** The wall clock of `instant` in `zone`, as `YYYY-MM-DD HH:MM:SS`. */
const wallClock = (instant: DateTime.Utc, zone: string): string =>
  new Intl.DateTimeFormat("sv-SE", {
    timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23"
  }).format(new Date(DateTime.toEpochMillis(instant)))

const read = (flag: "--since" | "--until", text: string, zone: string) => {
  const result = MessageFilter.readDate(flag, text, zone)
  if (Result.isFailure(result)) throw new Error(result.failure.message)
  return result.success
}

describe("MessageFilter.readDate", () => {
  it("law: a date alone is its first second for --since and its last for --until, in the account's zone", () => {
    fc.assert(fc.property(day, zones, (date, zone) => {
      const since = wallClock(read("--since", date, zone), zone)
      const until = wallClock(read("--until", date, zone), zone)
      // A day that starts inside a DST gap (rare: 00:00 skipped) starts at the first wall-clock time it has.
      expect(since.slice(0, 10)).toBe(date)
      expect(until).toBe(`${date} 23:59:59`)
    }), { numRuns: 300 })
  })

  it("law: a date-time without an offset is that wall clock in the account's zone", () => {
    fc.assert(fc.property(day, zones, fc.integer({ min: 12, max: 20 }), (date, zone, hour) => {
      expect(wallClock(read("--since", `${date}T${hour}:30:15`, zone), zone)).toBe(`${date} ${hour}:30:15`)
    }), { numRuns: 300 })
  })

  it("an offset or an HTTP-date wins over the account's zone", () => {
    expect(DateTime.formatIso(read("--since", "2026-11-21T10:15:00+01:00", "Asia/Kolkata"))).toBe("2026-11-21T09:15:00.000Z")
    expect(DateTime.formatIso(read("--since", "Sat, 21 Nov 2026 10:15:00 GMT", "Asia/Kolkata"))).toBe("2026-11-21T10:15:00.000Z")
    expect(DateTime.formatIso(read("--since", "2026-07-01", "Europe/London"))).toBe("2026-06-30T23:00:00.000Z")
  })

  it("refuses nonsense naming the flag the user typed", () => {
    const refused = MessageFilter.readDate("--until", "yesterday", "UTC")
    expect(Result.isFailure(refused) && refused.failure.parameter).toBe("--until")
    const noDay = MessageFilter.readDate("--since", "2026-04-31", "UTC")
    expect(Result.isFailure(noDay) && noDay.failure.message).toContain("--since")
    expect(Result.isFailure(noDay) && noDay.failure.message).toContain("no such day")
  })

  it("says a date-time without an offset is read in the account's time zone, not in UTC as GET /messages reads it", () => {
    const refused = MessageFilter.readDate("--since", "21/11/2026", "Europe/Paris")
    expect(Result.isFailure(refused) && refused.failure.message).toContain("read in the account's time zone Europe/Paris")
    expect(Result.isFailure(refused) && refused.failure.message).not.toContain("UTC")
  })
})

describe("MessageFilter.parameters", () => {
  const input = {
    since: Option.none(), until: Option.none(), direction: "MO", msisdn: Option.some("07400 123456"),
    defaultCountry: Option.some("GB"), group: Option.some("news")
  }

  it("names the parameters as GET /messages does, the number read with --default-country", () => {
    expect(run(MessageFilter.parameters(input, "UTC"))).toStrictEqual(
      Result.succeed({ direction: "MO", misdn: "447400123456", group_short_name: "news" })
    )
  })

  it("a national number without --default-country is refused naming --msisdn and the fix", () => {
    const result = run(MessageFilter.parameters({ ...input, defaultCountry: Option.none() }, "UTC"))
    expect(Result.isFailure(result) && result.failure.message).toMatch(/--msisdn.*--default-country/)
  })
})
