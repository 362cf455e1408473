import { Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as CarrierUrl from "../src/internal/carrierUrl.ts"

const mask = (url: string) => url.replace(/secret/g, "***")
const url = "demo://user:secret@host:1?window=3"
const read = CarrierUrl.reader(url, mask)

/** The failure's reason and masked value, or undefined when it succeeded. */
const failure = <A>(result: Result.Result<A, { readonly reason: string; readonly value: unknown; readonly field: string }>) =>
  Result.isFailure(result) ? { field: result.failure.field, value: result.failure.value, reason: result.failure.reason } : undefined

describe("carrier URL reader", () => {
  it("reads a whole number at least its minimum, and refuses anything else naming parameter and value", () => {
    fc.assert(fc.property(fc.nat({ max: 1_000_000 }), fc.nat({ max: 1_000_000 }), (value, min) => {
      const result = read.integer(new URLSearchParams({ n: String(value) }), "n", 7, min)
      if (value >= min) expect(result).toEqual(Result.succeed(value))
      else expect(failure(result)).toEqual({ field: "carrier", value: "demo://user:***@host:1?window=3", reason: `parameter n=${value} must be a whole number ≥ ${min}` })
    }))
    fc.assert(fc.property(fc.string().filter((raw) => !/^\d+$/.test(raw)), (raw) => {
      expect(failure(read.integer(new URLSearchParams({ n: raw }), "n", 7, 0))?.reason).toBe(`parameter n=${raw} must be a whole number ≥ 0`)
    }))
    expect(read.integer(new URLSearchParams(), "n", 7, 0)).toEqual(Result.succeed(7))
    expect(failure(read.integer(new URLSearchParams({ n: "99999999999999999999" }), "n", 7, 0))).toBeDefined()
  })

  it("reads true/false flags (true when absent) and refuses other words", () => {
    expect(read.flag(new URLSearchParams({ f: "false" }), "f")).toEqual(Result.succeed(false))
    expect(read.flag(new URLSearchParams({ f: "true" }), "f")).toEqual(Result.succeed(true))
    expect(read.flag(new URLSearchParams(), "f")).toEqual(Result.succeed(true))
    fc.assert(fc.property(fc.string().filter((raw) => raw !== "true" && raw !== "false"), (raw) => {
      expect(failure(read.flag(new URLSearchParams({ f: raw }), "f"))?.reason).toBe(`parameter f=${raw} must be true or false`)
    }))
  })

  it("accepts known parameters only", () => {
    const parsed = new URL("demo://host?window=1&tps=2&typo=3")
    expect(failure(read.parameters(parsed, new Set(["window", "tps"])))?.reason).toBe("unknown parameter typo")
    expect(Result.isSuccess(read.parameters(parsed, new Set(["window", "tps", "typo"])))).toBe(true)
  })

  it("parses the URL with its scheme and a host, or says which is wrong", () => {
    const reason = (raw: string) => failure(CarrierUrl.reader(raw, mask).parse("demo:", "demo://host"))?.reason
    expect(reason("not a url")).toBe("is not a URL like demo://host")
    expect(reason("other://host")).toBe("scheme other: is not demo:")
    expect(reason("demo://")).toBe("names no host")
    const parsed = CarrierUrl.reader("demo://u:p@host:9?a=b", mask).parse("demo:", "demo://host")
    expect(Result.isSuccess(parsed) ? [parsed.success.hostname, parsed.success.port] : []).toEqual(["host", "9"])
  })
})
