/**
 * Query strings as the server reads them: a blank value is a parameter not given, unknown parameters are ignored
 * (repeated or not), and a repeat that reads as the same value answers as the query with it once.
 */
import { Query } from "@smsbook/core"
import { Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as QueryParams from "../src/internal/queryParams.ts"
import { serving } from "./running.ts"

/** A page as the stores answer it: `query` and `group` match in any case, so their case is not part of the answer. */
const answered = (page: unknown): unknown =>
  typeof page === "object" && page !== null
    ? Object.fromEntries(Object.entries(page).map(([field, value]) =>
      [field, (field === "query" || field === "group") && typeof value === "string" ? value.toLowerCase() : value]))
    : page

/** What an endpoint reads from `url`: its page (as answered), or the failure's tag and parameter. */
const read = (endpoint: Query.Endpoint, url: string): unknown => {
  const read = Result.flatMap(
    QueryParams.fromUrl(url, endpoint),
    (params): Result.Result<unknown, { readonly _tag: string; readonly parameter?: string | undefined }> =>
      endpoint === "messages" ? Query.messages(params) : Query.contacts(params)
  )
  return Result.isSuccess(read) ? { ok: answered(read.success) } : { refused: read.failure._tag, parameter: read.failure.parameter?.toLowerCase() }
}

/** Each parameter's values (read or refused), and spellings of one that read as it (same value as read). */
const values: { readonly [name: string]: ReadonlyArray<readonly [string, ReadonlyArray<string>]> } = {
  Limit: [["5", ["05", " 5 "]], ["1000", ["01000"]], ["0", []], ["x", []], ["", [" "]]],
  Start: [["0", ["00"]], ["12", ["012"]], ["-1", []]],
  start: [["0", ["00"]], ["3", ["0003"]]],
  Query: [["Ann", ["ann", "ANN "]], ["%", []]],
  Status: [["CANCELLED", ["cancelled", " Cancelled"]], ["SUSCRIBED", ["subscribed"]], ["nope", []], ["", []]],
  shortResults: [["1", ["true", "TRUE"]], ["0", ["false"]], ["maybe", []]],
  start_date: [["Sat, 21 Nov 2026 10:15:00 GMT", ["Sat, 21 Nov 2026 10:15:00 UTC", "Saturday, 21-Nov-26 10:15:00 GMT"]], ["soon", []]],
  end_date: [["Sat, 21 Nov 2026 10:15:00 GMT", ["Sat Nov 21 10:15:00 2026"]], ["", []]],
  misdn: [["447400123456", ["+44 7400 123456"]], ["12", []]],
  msisdn: [["447400123456", ["+447400123456"]]],
  group_short_name: [["news", ["NEWS", " News"]]],
  direction: [["MT", ["mt"]], ["ALL", ["all"]], ["up", []]],
  tag: [["a", ["b"]]],
  utm: [["1", ["2", ""]]]
}

/** A name as a client may spell it: known names in any case, unknown ones as they are. */
const spelling = (name: string) =>
  fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((upper) => [...name].map((c, i) => upper[i] ? c.toUpperCase() : c.toLowerCase()).join(""))

const parameter = fc.constantFrom(...Object.keys(values)).chain((name) =>
  fc.tuple(spelling(name), fc.constantFrom(...(values[name] ?? []))))

const query = (pairs: ReadonlyArray<readonly [string, string]>) =>
  "/list?" + pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join("&")

describe("repeated query parameters", () => {
  it("law: a parameter repeated with a value that reads as the same (or blank) answers as the query with it once", () => {
    fc.assert(fc.property(
      fc.constantFrom<Query.Endpoint>("messages", "contacts"),
      fc.uniqueArray(parameter, { minLength: 1, maxLength: 6, selector: ([name]) => name.toLowerCase() }),
      fc.nat(),
      fc.nat(),
      fc.nat(),
      (endpoint, pairs, which, variant, at) => {
        const [name, [value, same]] = pairs[which % pairs.length] ?? ["", ["", []]]
        const spellings = [value, ...same]
        const repeat: readonly [string, string] = [name, spellings[variant % spellings.length] ?? value]
        const once = pairs.map(([n, [v]]) => [n, v] as const)
        const twice = [...once.slice(0, at % (once.length + 1)), repeat, ...once.slice(at % (once.length + 1))]
        expect(read(endpoint, query(twice))).toEqual(read(endpoint, query(once)))
      }
    ), { numRuns: 2000 })
  })

  it("a blank repeat is no value, and unknown parameters are ignored however often they come", () => {
    expect(read("messages", "/m?Limit=5&Limit=")).toEqual(read("messages", "/m?Limit=5"))
    expect(read("messages", "/m?Limit=&Limit=5")).toEqual(read("messages", "/m?Limit=5"))
    expect(read("contacts", "/c?Status=CANCELLED&status=")).toEqual(read("contacts", "/c?Status=CANCELLED"))
    expect(read("contacts", "/c?tag=a&tag=b&utm=1&utm=2")).toEqual(read("contacts", "/c"))
    // Parameters of the other endpoint are unknown here.
    expect(read("contacts", "/c?direction=MT&direction=MO")).toEqual(read("contacts", "/c"))
    expect(read("messages", "/m?Limit=1&Limit=2")).toEqual({ refused: "InvalidParameter", parameter: "limit" })
  })
})

describe("repeated query parameters over a real server", () => {
  const server = serving({ noAuth: true })

  it("answers 200 where the repeats agree as read, 400 INVALID_PARAMETER where they do not", async () => {
    const status = async (path: string) => (await fetch(server.url + path)).status
    for (const path of [
      "/messages?Limit=5&Limit=", "/messages?Limit=&Limit=5", "/messages?Limit=1&limit=01", "/messages?Start=0&start=00",
      "/messages?start_date=Sat,%2021%20Nov%202026%2010:15:00%20GMT&start_date=Sat,%2021%20Nov%202026%2010:15:00%20UTC",
      "/messages?group_short_name=news&group_short_name=NEWS", "/messages?tag=a&tag=b", "/messages?utm=1&utm=2",
      "/contacts?Status=CANCELLED&status=", "/contacts?tag=a&tag=b"
    ]) expect([path, await status(path)]).toEqual([path, 200])
    const refused = await fetch(`${server.url}/messages?Limit=5&limit=6`)
    expect([refused.status, await refused.json()]).toEqual([400, { error: expect.objectContaining({ code: "INVALID_PARAMETER" }) }])
  })
})
