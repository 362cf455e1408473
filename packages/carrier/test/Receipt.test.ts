import { PartQueue } from "@smsbook/core"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Deliveries from "../src/Deliveries.ts"
import * as Receipt from "../src/Receipt.ts"

/** How SMSCs spell one numeric message id: decimal (bare or Appendix B's 10 digits), hex in either case (bare, 8 or 16 digits). */
const spellings = (value: bigint): ReadonlyArray<string> => {
  const hex = value.toString(16)
  return [
    value.toString(), value.toString().padStart(10, "0"), hex, hex.toUpperCase(), hex.padStart(8, "0"), hex.padStart(8, "0").toUpperCase(),
    hex.padStart(16, "0"), hex.padStart(16, "0").toUpperCase()
  ]
}

const value = fc.bigInt({ min: 0n, max: 2n ** 53n - 1n })

describe("Receipt", () => {
  it("reads the Appendix B text and the TLVs (the TLVs win)", () => {
    expect(Receipt.parse({ text: Receipt.format({ messageId: "0000012345", stat: "UNDELIV", error: "001" }) }))
      .toEqual({ messageId: "0000012345", state: "undeliverable", error: "001" })
    expect(Receipt.parse({ receipted_message_id: "3039", message_state: 2, text: "id:12345 stat:UNDELIV" }))
      .toEqual({ messageId: "3039", state: "delivered" })
  })

  it("reads every state of SMPP 3.4's message_state TLV (5.2.28) and every Appendix B stat word, long spellings and any case", () => {
    const byTlv = ["enroute", "delivered", "expired", "deleted", "undeliverable", "accepted", "unknown", "rejected"] as const
    for (const [index, state] of byTlv.entries()) {
      expect(Receipt.parse({ receipted_message_id: "77", message_state: index + 1, text: "" }), `message_state ${index + 1}`).toEqual({ messageId: "77", state })
    }
    const byStat: ReadonlyArray<readonly [string, Receipt.State]> = [
      ["DELIVRD", "delivered"], ["DELIVERED", "delivered"], ["EXPIRED", "expired"], ["DELETED", "deleted"], ["UNDELIV", "undeliverable"],
      ["UNDELIVERABLE", "undeliverable"], ["ACCEPTD", "accepted"], ["ACCEPTED", "accepted"], ["UNKNOWN", "unknown"], ["REJECTD", "rejected"],
      ["REJECTED", "rejected"], ["ENROUTE", "enroute"]
    ]
    for (const [stat, state] of byStat) {
      for (const spelled of [stat, stat.toLowerCase()]) {
        expect(Receipt.parse({ text: `id:77 sub:001 dlvrd:000 stat:${spelled} err:000` }), spelled).toEqual({ messageId: "77", state, error: "000" })
      }
    }
  })

  it("counts as failed and as final exactly the receipt states the dispatcher's queue does (core's PartQueue)", () => {
    const states: ReadonlyArray<Receipt.State> = ["enroute", "accepted", "delivered", "undeliverable", "expired", "rejected", "deleted", "unknown"]
    for (const state of states) {
      expect(Receipt.failed.has(state), `failed: ${state}`).toBe(PartQueue.failedStates.includes(state))
      expect(Receipt.final.has(state), `final: ${state}`).toBe(PartQueue.finalStates.includes(state))
    }
  })

  it("law: a deliver_sm is a receipt when its message type (esm_class bits 2-5) is an SMSC delivery receipt or an intermediate notification", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 255 }), (esmClass) => {
      const type = (esmClass >> 2) & 0x0f
      expect(Receipt.isReceipt(esmClass)).toBe(type === 0x01 || type === 0x08)
    }), { examples: [[0x04], [0x20], [0x44], [0x60], [0x00], [0x08], [0x10], [0x40]] })
  })

  it("law: a receipt's id names its part however the SMSC spelled the two ids (decimal or hex, zero-padded or not, either case), the id itself first", () => {
    fc.assert(fc.property(value, fc.nat(7), fc.nat(7), (v, a, b) => {
      const submitted = spellings(v)[a] ?? ""
      const received = spellings(v)[b] ?? ""
      // An id of digits only is read as decimal: a hex id without a letter cannot be told from one.
      fc.pre(/^\d+$/.test(received) ? b <= 1 : true)
      const candidates = Receipt.idCandidates(received)
      expect(candidates[0]).toBe(received)
      expect(candidates).toContain(submitted)
    }))
  })

  it("applies a receipt whose decimal id is zero-padded to 10 digits to the part its submit_sm_resp named", () => {
    for (const [submitted, received] of [["12345", "0000012345"], ["0A1B2C3D", "169552957"], ["a1b2c3", "A1B2C3"], ["0000012345", "12345"]] as const) {
      const deliveries = Deliveries.make()
      deliveries.submitted({ message_id: "m", msisdn: "447400123456", part: 1 }, submitted)
      const applied = deliveries.receipt({ messageId: received, state: "delivered" })
      expect(applied._tag, `${submitted} ← ${received}`).toBe("Updated")
    }
  })

  it("applies a receipt with an id and a state outside SMPP 3.4's tables as unknown (not final, not failed), never drops it", () => {
    expect(Receipt.parse({ text: "id:77 sub:001 dlvrd:000 submit date:2601011200 done date:2601011201 stat:SKIPPED err:000 text:" }))
      .toEqual({ messageId: "77", state: "unknown", error: "000" })
    // SMPP 5.0's SCHEDULED (0) and SKIPPED (9) in the TLV, no text.
    expect(Receipt.parse({ receipted_message_id: "77", message_state: 9, text: "" })).toEqual({ messageId: "77", state: "unknown" })
    expect(Receipt.parse({ receipted_message_id: "77", message_state: 0, text: "" })).toEqual({ messageId: "77", state: "unknown" })
    // A known state in one form wins over an unknown one in the other.
    expect(Receipt.parse({ receipted_message_id: "77", message_state: 9, text: "id:77 stat:DELIVRD" })).toEqual({ messageId: "77", state: "delivered" })
    // Without any state, or without an id, it is unreadable (reported by the caller).
    expect(Receipt.parse({ text: "id:77 sub:001 dlvrd:000" })).toBeUndefined()
    expect(Receipt.parse({ text: "stat:DELIVRD" })).toBeUndefined()
    const deliveries = Deliveries.make()
    deliveries.submitted({ message_id: "m", msisdn: "447400123456", part: 1 }, "77")
    expect(deliveries.receipt({ messageId: "77", state: "unknown" })).toMatchObject({ _tag: "Updated", failed: false })
    expect(deliveries.receipt({ messageId: "77", state: "delivered" })).toMatchObject({ _tag: "Updated", part: { state: "delivered" } })
  })
})
