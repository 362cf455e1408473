/**
 * The fixtures keep the promises the tests lean on: numbers valid and ordered as their index, names
 * joined as the use cases join them, and runs of messages that tie on creation three at a time.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Fixtures from "../src/Fixtures.ts"

describe("Fixtures", () => {
  it("msisdn(n) is ordered as n", () => {
    fc.assert(fc.property(fc.nat(999_999), fc.nat(999_999), (a, b) => {
      expect(Fixtures.msisdn(a) < Fixtures.msisdn(b)).toBe(a < b)
    }))
  })

  it("msisdn refuses an index that is not a number of 6 digits", () => {
    expect(() => Fixtures.msisdn(1_000_000)).toThrow()
  })

  it("contact joins the names given into full_name, skipping a blank one; fields win", () => {
    expect(Fixtures.contact(1, { first_name: "Ann", last_name: "Lee" }).full_name).toBe("Ann Lee")
    expect(Fixtures.contact(1, { last_name: "Lee" }).full_name).toBe("Lee")
    expect(Fixtures.contact(1, { first_name: "Ann", full_name: "X" }).full_name).toBe("X")
    expect(Fixtures.contact(7)).toMatchObject({ msisdn: "447400000007", phone_number: "7400000007", country_code: "44" })
    expect(Fixtures.contact(1).profile_uid).not.toBe(Fixtures.contact(2).profile_uid)
  })

  it("nthMessage ties three messages to an instant, ordered by id within it", () => {
    const run = Array.from({ length: 7 }, (_, n) => Fixtures.nthMessage(n))
    expect(run.map((m) => m.created_at - Fixtures.epoch)).toEqual([0, 0, 0, 1, 1, 1, 2])
    expect(run.map((m) => m.message_id)).toEqual([...run.map((m) => m.message_id)].sort())
  })

  it("groupMessage is pending, reaches nobody yet, and carries its tags", () => {
    expect(Fixtures.groupMessage("g", ["News"])).toMatchObject({
      status: "PENDING", type: 2, tags: ["News"], total_recipients: 0, sent_count: 0, is_billable: false
    })
  })
})
