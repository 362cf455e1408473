/**
 * The message filter flags read into `GET /messages` parameters: a date alone is a whole day,
 * absent flags say nothing, and bad dates are refused.
 */
import { HttpDate } from "@smsbook/core"
import { DateTime, Effect, Option, Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as MessageFilter from "../src/MessageFilter.ts"

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runSync(Effect.result(effect))

const day = fc.date({ min: new Date("1971-01-01T00:00:00Z"), max: new Date("2999-12-31T00:00:00Z"), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10))

describe("MessageFilter.dateParameter", () => {
  it("law: a date alone is its first second for --from and its last for --to", () => {
    fc.assert(fc.property(day, (date) => {
      const from = run(MessageFilter.dateParameter("start_date", Option.some(date)))
      const to = run(MessageFilter.dateParameter("end_date", Option.some(date)))
      const start = DateTime.makeUnsafe(`${date}T00:00:00Z`)
      expect(from).toStrictEqual(Result.succeed({ start_date: HttpDate.format(start) }))
      expect(to).toStrictEqual(Result.succeed({ end_date: HttpDate.format(DateTime.add(start, { seconds: 86_399 })) }))
    }))
  })

  it("a time is kept as given; absent says nothing; nonsense is refused", () => {
    expect(run(MessageFilter.dateParameter("end_date", Option.some("2026-11-21T10:15:00Z"))))
      .toStrictEqual(Result.succeed({ end_date: "Sat, 21 Nov 2026 10:15:00 GMT" }))
    expect(run(MessageFilter.dateParameter("start_date", Option.none()))).toStrictEqual(Result.succeed({}))
    expect(Result.isFailure(run(MessageFilter.dateParameter("start_date", Option.some("yesterday"))))).toBe(true)
  })
})

describe("MessageFilter.parameters", () => {
  it("names the flags as GET /messages does", () => {
    const input = { from: Option.none(), to: Option.none(), direction: "MO", msisdn: Option.some("447400123456"), group: Option.some("news") }
    expect(run(MessageFilter.parameters(input))).toStrictEqual(
      Result.succeed({ direction: "MO", misdn: "447400123456", group_short_name: "news" })
    )
  })
})
