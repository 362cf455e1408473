import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Submit from "../src/internal/submit.ts"

const part = (msisdn: string, short_code: string) => ({
  message_id: "m1",
  msisdn,
  short_code,
  part: 1,
  parts: 1,
  text: "hi"
})

const encoded = { data_coding: 0, esm_class: 0, short_message: Uint8Array.of(0x41) }

describe("submit_sm", () => {
  it("law: the destination, an E.164 msisdn of any valid length (Saint Helena's are 8 digits), is international: TON 1, NPI 1", () => {
    fc.assert(fc.property(fc.stringMatching(/^[1-9]\d{5,14}$/), (msisdn) => {
      const params = Submit.params(part(msisdn, "SHOP"), encoded, true)
      expect(params).toMatchObject({ destination_addr: msisdn, dest_addr_ton: 1, dest_addr_npi: 1 })
    }))
    expect(Submit.params(part("29051234", "SHOP"), encoded, true)).toMatchObject({ dest_addr_ton: 1, dest_addr_npi: 1 })
  })

  it("types the sender by its form: alphanumeric TON 5, a short code TON 3, a long number international", () => {
    expect(Submit.params(part("447400123456", "SHOP"), encoded, true)).toMatchObject({ source_addr_ton: 5, source_addr_npi: 0 })
    expect(Submit.params(part("447400123456", "12345"), encoded, true)).toMatchObject({ source_addr_ton: 3, source_addr_npi: 0 })
    expect(Submit.params(part("447400123456", "447400000001"), encoded, true)).toMatchObject({ source_addr_ton: 1, source_addr_npi: 1 })
    expect(Submit.params(part("447400123456", "SHOP"), encoded, false)).toMatchObject({ registered_delivery: 0 })
  })

  it("law: a sender of digits only is a short code (TON 3) up to 8 digits and an international number (TON 1, NPI 1) from 9", () => {
    fc.assert(fc.property(fc.stringMatching(/^\d{1,15}$/), (digits) => {
      const params = Submit.params(part("447400123456", digits), encoded, true)
      expect(params).toMatchObject(digits.length <= 8
        ? { source_addr_ton: 3, source_addr_npi: 0, source_addr: digits }
        : { source_addr_ton: 1, source_addr_npi: 1, source_addr: digits })
    }), { examples: [["12345678"], ["123456789"]] })
  })

  it("sends a sender written with its `+` as the international number it is (TON 1, NPI 1, digits only), not as alphanumeric text", () => {
    expect(Submit.params(part("447400123456", "+447400000001"), encoded, true))
      .toMatchObject({ source_addr_ton: 1, source_addr_npi: 1, source_addr: "447400000001" })
    // As people write it in a setting: the separators are no part of the number, and it is no 15-character name.
    for (const written of ["+44 7400 000001", "+44-7400-000001", "+1 (202) 555-0100"]) {
      const digits = written.replace(/\D/g, "")
      expect(Submit.params(part("447400123456", written), encoded, true))
        .toMatchObject({ source_addr_ton: 1, source_addr_npi: 1, source_addr: digits })
      expect(Submit.senderProblem(written)).toBeUndefined()
    }
  })

  it("law: a sender an SMSC takes is no problem: a short code, an international number of at most 15 digits, 1 to 11 ASCII characters", () => {
    const taken = fc.oneof(
      fc.stringMatching(/^[1-9]\d{2,7}$/),
      fc.stringMatching(/^\+?[1-9]\d{8,14}$/),
      fc.stringMatching(/^[\x20-\x7e]{1,11}$/).filter((value) => !/^\+?\d+$/.test(value))
    )
    fc.assert(fc.property(taken, (sender) => {
      expect(Submit.senderProblem(sender)).toBeUndefined()
    }))
  })

  it("law: a sender no SMSC takes as it is is a problem: more than 15 digits, more than 11 other characters, or any beyond ASCII", () => {
    const refused = fc.oneof(
      fc.stringMatching(/^\+?[1-9]\d{15,20}$/),
      fc.stringMatching(/^[A-Za-z ]{12,30}$/),
      fc.tuple(fc.stringMatching(/^[A-Za-z]{0,5}$/), fc.constantFrom("é", "ß", "Ω", "店", "😀")).map(([name, other]) => name + other)
    )
    fc.assert(fc.property(refused, (sender) => {
      expect(Submit.senderProblem(sender)).toBeDefined()
    }))
  })
})
