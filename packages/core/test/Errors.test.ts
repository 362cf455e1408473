import { describe, expect, it } from "vitest"
import * as Errors from "../src/Errors.ts"

describe("Errors", () => {
  it("numbers and codes are unique", () => {
    const infos = Object.values(Errors.catalog)
    expect(new Set(infos.map((info) => info.number)).size).toBe(infos.length)
    expect(new Set(infos.map((info) => info.code)).size).toBe(infos.length)
  })

  it("input errors are exactly the 400 and 422 answers", () => {
    const error = new Errors.MessageTooLong({ length: 200, max: 154 })
    expect(Errors.isInputError(error)).toBe(true)
    expect(Errors.isInputError(new Errors.ContactNotFound({ msisdn: "447400123456" }))).toBe(false)
    expect(Errors.isInputError(new Errors.StoreFailure({ operation: "x", reason: "y" }))).toBe(false)
    expect(error.message).toContain("154")
  })
})
