import { Results } from "@smsbook/testing"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Contact from "../src/Contact.ts"
import * as Query from "../src/Query.ts"

const ok = Results.success
const failure = Results.failure

/** A spelling of `name` with random letter case. */
const anyCase = (name: string): fc.Arbitrary<string> =>
  fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }).map((upper) =>
    [...name].map((char, i) => upper[i] ? char.toUpperCase() : char.toLowerCase()).join("")
  )

describe("Query.contacts", () => {
  it("defaults: Limit 50, Start 0, full results, no filter", () => {
    expect(ok(Query.contacts({}))).toEqual({ limit: 50, start: 0, short: false })
  })

  it("law: every Limit from 1 to 1000 and every Start ≥ 0 is read as given; over 1000 or under 1 is refused", () => {
    // The bounds themselves are examples: drawn from 2,000 values, 0 and 1001 were rarely tried (a Limit of 0 taken
    // went unnoticed).
    fc.assert(fc.property(fc.integer({ min: -5, max: 2000 }), fc.integer({ min: -5, max: 1_000_000 }), (limit, start) => {
      const result = Query.contacts({ Limit: String(limit), Start: String(start) })
      if (limit >= 1 && limit <= 1000 && start >= 0) expect(ok(result)).toMatchObject({ limit, start })
      else expect(failure(result)).toMatchObject({ _tag: "InvalidParameter", parameter: limit >= 1 && limit <= 1000 ? "Start" : "Limit" })
    }), { examples: [[0, 0], [1, 0], [1000, 0], [1001, 0], [50, -1]] })
  })

  it("law: parameter names match in any case", () => {
    fc.assert(fc.property(anyCase("limit"), anyCase("start"), anyCase("query"), anyCase("shortresults"), (l, s, q, r) => {
      expect(ok(Query.contacts({ [l]: "7", [s]: "3", [q]: " ann ", [r]: "1" }))).toEqual({
        limit: 7,
        start: 3,
        query: "ann",
        short: true
      })
    }))
  })

  it("one name spelt twice with different values is refused as ambiguous; with the same value it reads", () => {
    expect(failure(Query.contacts({ Limit: "5", limit: "6" }))).toMatchObject({ _tag: "InvalidParameter" })
    expect(ok(Query.contacts({ Limit: "5", limit: "5" })).limit).toBe(5)
  })

  it("law: two spellings of a word read in any case agree (Status, direction, shortResults); two words do not", () => {
    const spelling = (word: string) => fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length })
      .map((upper) => [...word].map((c, i) => upper[i] ? c.toUpperCase() : c.toLowerCase()).join(""))
    const words = { Status: [...Contact.statuses, "SUSCRIBED"], direction: ["ALL", "MT", "MO"], shortResults: ["true", "1", "false", "0"] }
    const same = (name: keyof typeof words, a: string, b: string) =>
      name === "Status" ? [a, b].every((w) => /^su(b)?scribed$/i.test(w)) || a.toLowerCase() === b.toLowerCase()
        : name === "shortResults" ? /^(true|1)$/i.test(a) === /^(true|1)$/i.test(b)
        : a.toLowerCase() === b.toLowerCase()
    fc.assert(fc.property(
      fc.constantFrom("Status", "direction", "shortResults" as const),
      fc.nat(),
      fc.nat(),
      (name, i, j) => {
        const list = words[name]
        const [a, b] = [list[i % list.length] ?? "", list[j % list.length] ?? ""]
        const endpoint = name === "direction" ? "messages" : "contacts"
        expect([name, a, b, Query.agree(endpoint, name, a, b)]).toEqual([name, a, b, same(name, a, b)])
        expect(Query.agree(endpoint, name.toLowerCase(), a.toLowerCase(), b.toUpperCase())).toBe(same(name, a, b))
      }
    ))
    fc.assert(fc.property(spelling("cancelled"), spelling("cancelled"), (a, b) => {
      expect(ok(Query.contacts({ Status: a, status: b })).status).toBe("CANCELLED")
    }))
    expect(ok(Query.messages({ direction: "mt", Direction: "MT" })).direction).toBe("MT")
    // A word that is none of the parameter's agrees only as the same text, and is then refused by its reading.
    expect(Query.agree("contacts", "Status", "nope", "NOPE")).toBe(false)
  })

  it("a blank value is a parameter not given: it contradicts no other spelling of its name", () => {
    expect(ok(Query.messages({ Limit: "5", limit: "" })).limit).toBe(5)
    expect(ok(Query.messages({ Limit: " ", limit: "5" })).limit).toBe(5)
    expect(ok(Query.contacts({ Status: "CANCELLED", status: "" })).status).toBe("CANCELLED")
  })

  it("values read as one agree, for every known parameter; unknown parameters are ignored, repeated or not", () => {
    expect(ok(Query.messages({ Limit: "1", limit: "01" })).limit).toBe(1)
    expect(ok(Query.messages({ Start: "0", start: "00" })).start).toBe(0)
    expect(ok(Query.contacts({ Start: "0", start: "00", Query: "Ann", query: "ann " })).query).toBe("Ann")
    expect(ok(Query.messages({ start_date: "Sat, 21 Nov 2026 10:15:00 GMT", Start_Date: "Sat, 21 Nov 2026 10:15:00 UTC" })).from)
      .toBe(Date.UTC(2026, 10, 21, 10, 15))
    expect(ok(Query.messages({ group_short_name: "news", Group_Short_Name: "NEWS" })).group).toBe("news")
    expect(ok(Query.messages({ misdn: "447400123456", MISDN: "+44 7400 123456" })).msisdn).toBe("447400123456")
    expect(ok(Query.contacts({ tag: "a", Tag: "b", direction: "MT", Direction: "nope" })).limit).toBe(Query.defaultContactsLimit)
    // Still refused: values that read differently, and an unreadable one beside a readable one.
    expect(failure(Query.messages({ Limit: "1", limit: "2" }))).toMatchObject({ _tag: "InvalidParameter" })
    expect(failure(Query.messages({ group_short_name: "news", Group_short_name: "vip" }))).toMatchObject({ _tag: "InvalidParameter" })
    expect(failure(Query.messages({ start_date: "Sat, 21 Nov 2026 10:15:00 GMT", Start_date: "Sat, 21 Nov 2026 10:15:01 GMT" })))
      .toMatchObject({ _tag: "InvalidParameter" })
    expect(failure(Query.messages({ Limit: "1", limit: "x" }))).toMatchObject({ _tag: "InvalidParameter" })
  })

  it("a NUL in any parameter's value is refused, naming it (no store could search for it)", () => {
    expect(failure(Query.contacts({ Query: "a\u0000b" }))).toMatchObject({ _tag: "InvalidParameter", parameter: "Query" })
    expect(failure(Query.messages({ group_short_name: "\u0000" }))).toMatchObject({ _tag: "InvalidParameter", parameter: "group_short_name" })
  })

  it("Start must be a whole number ≥ 0", () => {
    for (const start of ["-1", "1.5", "abc", "1e3", "0x10"]) {
      expect(failure(Query.contacts({ Start: start }))).toMatchObject({ parameter: "Start", value: start })
    }
    expect(ok(Query.contacts({ Start: " 12 " })).start).toBe(12)
    expect(ok(Query.contacts({ Start: "" })).start).toBe(0)
  })

  it("Start and start reach the bound their refusal names: the largest safe integer", () => {
    const largest = String(Number.MAX_SAFE_INTEGER)
    expect(ok(Query.contacts({ Start: largest })).start).toBe(Number.MAX_SAFE_INTEGER)
    expect(ok(Query.messages({ start: largest })).start).toBe(Number.MAX_SAFE_INTEGER)
    for (const start of ["9007199254740992", "9999999999999999", "10000000000000000"]) {
      expect(failure(Query.contacts({ Start: start }))).toMatchObject({ parameter: "Start", reason: `must be a whole number from 0 to ${largest}` })
    }
  })

  it("Status reads the four statuses in any case, SUSCRIBED as SUBSCRIBED; anything else is refused", () => {
    expect(ok(Query.contacts({ Status: "cancelled" })).status).toBe("CANCELLED")
    expect(ok(Query.contacts({ Status: "SUSCRIBED" })).status).toBe("SUBSCRIBED")
    expect(ok(Query.contacts({ Status: "Invited" })).status).toBe("INVITED")
    expect(ok(Query.contacts({ Status: " " }))).not.toHaveProperty("status")
    expect(failure(Query.contacts({ Status: "ACTIVE" }))).toMatchObject({ parameter: "Status" })
  })

  it("shortResults: true/1 is the reduced form (the description's meaning), false/0/absent the full one", () => {
    for (const value of ["1", "true", "TRUE", " 1 "]) expect(ok(Query.contacts({ shortResults: value })).short).toBe(true)
    for (const value of ["0", "false", ""]) expect(ok(Query.contacts({ shortResults: value })).short).toBe(false)
    expect(failure(Query.contacts({ shortResults: "yes" }))).toMatchObject({ parameter: "shortResults" })
  })

  it("Query is trimmed; a blank one is no filter; % and _ are kept as text", () => {
    expect(ok(Query.contacts({ Query: "  " }))).not.toHaveProperty("query")
    expect(ok(Query.contacts({ Query: " 10%_x " })).query).toBe("10%_x")
  })
})

describe("Query.messages", () => {
  const hour = Date.UTC(2026, 10, 21, 11, 15, 0)

  it("defaults: Limit 200, start 0, every direction, no bounds", () => {
    expect(ok(Query.messages({}))).toEqual({ limit: 200, start: 0 })
  })

  it("law: Limit 1–1000 is read as given, anything else refused", () => {
    fc.assert(fc.property(fc.integer({ min: -5, max: 2000 }), (limit) => {
      const result = Query.messages({ limit: String(limit) })
      if (limit >= 1 && limit <= 1000) expect(ok(result).limit).toBe(limit)
      else expect(failure(result)).toMatchObject({ parameter: "Limit" })
    }), { examples: [[0], [1], [1000], [1001]] })
  })

  it("start_date and end_date are HTTP-dates; end_date covers its whole second; either may be absent", () => {
    expect(ok(Query.messages({ start_date: "Sat, 21 Nov 2026 11:15:00 GMT" }))).toEqual({ limit: 200, start: 0, from: hour })
    expect(ok(Query.messages({ end_date: "Sat, 21 Nov 2026 11:15:00 GMT" }))).toEqual({ limit: 200, start: 0, to: hour + 999 })
    expect(ok(Query.messages({ START_DATE: "Saturday, 21-Nov-26 11:15:00 GMT", End_Date: "Sat Nov 21 11:15:00 2026" })))
      .toMatchObject({ from: hour, to: hour + 999 })
  })

  it("law: for any two instants, start_date ≤ end_date reads and start_date > end_date is refused", () => {
    const second = fc.integer({ min: 0, max: 4_000_000_000 }).map((s) => new Date(s * 1000).toUTCString())
    fc.assert(fc.property(second, second, (a, b) => {
      const result = Query.messages({ start_date: a, end_date: b })
      if (Date.parse(a) <= Date.parse(b)) expect(ok(result)).toMatchObject({ from: Date.parse(a), to: Date.parse(b) + 999 })
      else expect(failure(result)).toMatchObject({ parameter: "start_date" })
    }))
  })

  it("a date that is not an HTTP-date is refused naming its parameter", () => {
    expect(failure(Query.messages({ start_date: "2026-11-21" }))).toMatchObject({ parameter: "start_date", value: "2026-11-21" })
    expect(failure(Query.messages({ end_date: "Sun, 21 Nov 2026 11:15:00 GMT" }))).toMatchObject({ parameter: "end_date" })
  })

  it("direction: ALL (any case) is no filter, MT and MO filter, anything else is refused", () => {
    expect(ok(Query.messages({ direction: "all" }))).not.toHaveProperty("direction")
    expect(ok(Query.messages({ direction: "mt" })).direction).toBe("MT")
    expect(ok(Query.messages({ Direction: "MO" })).direction).toBe("MO")
    expect(failure(Query.messages({ direction: "IN" }))).toMatchObject({ parameter: "direction" })
  })

  it("misdn (or msisdn) is parsed as a phone number; group_short_name is trimmed", () => {
    expect(ok(Query.messages({ misdn: "+44 7400 123456" })).msisdn).toBe("447400123456")
    expect(ok(Query.messages({ msisdn: "447400123456" })).msisdn).toBe("447400123456")
    // A number that is none is refused as in a body (INVALID_MSISDN), naming the parameter it came in.
    expect(failure(Query.messages({ misdn: "12" }))).toMatchObject({ _tag: "InvalidMsisdn", parameter: "misdn", value: "12", problem: "too-short" })
    expect(failure(Query.messages({ MSISDN: "12" }))).toMatchObject({ _tag: "InvalidMsisdn", parameter: "msisdn" })
    // Both spellings: one number however written, or refused as a contradiction.
    expect(ok(Query.messages({ misdn: "+447400123456", msisdn: "447400123456" })).msisdn).toBe("447400123456")
    expect(failure(Query.messages({ misdn: "447400123456", msisdn: "447400123457" }))).toMatchObject({ parameter: "misdn" })
    expect(ok(Query.messages({ misdn: "+44 7400 123456", MISDN: "447400123456" })).msisdn).toBe("447400123456")
    // Other parameters agree as read too: 5 and 05 are one Limit.
    expect(ok(Query.messages({ Limit: "5", limit: "05" })).limit).toBe(5)
    expect(ok(Query.messages({ group_short_name: " News " })).group).toBe("News")
  })
})
