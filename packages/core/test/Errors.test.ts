import { describe, expect, it } from "vitest"
import * as Errors from "../src/Errors.ts"

describe("Errors", () => {
  it("numbers and codes are unique", () => {
    const infos = Object.values(Errors.catalog)
    expect(new Set(infos.map((info) => info.number)).size).toBe(infos.length)
    expect(new Set(infos.map((info) => info.code)).size).toBe(infos.length)
  })

  it("MessageTooLong names the budget it was given", () => {
    expect(new Errors.MessageTooLong({ length: 200, max: 154 }).message).toContain("154")
  })

  it("CarrierFailure says the link to the carrier failed, which is true of a connection never made as of one that broke", () => {
    const reasons = [
      "no bind to the SMSC as smsbook after 10 s: connection refused: nothing listens on 127.0.0.1:2775; check the host and port",
      "the link is closed"
    ]
    for (const reason of reasons) {
      const error = new Errors.CarrierFailure({ reason })
      expect(error.message).toBe(`the link to the carrier failed: ${reason}`)
      expect(error.message).not.toContain("refused the hand-over")
      expect(Errors.info(error)).toEqual({ code: "CARRIER_FAILURE", number: 2003, status: 502 })
    }
  })
})
