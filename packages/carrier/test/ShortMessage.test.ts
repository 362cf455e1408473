import { Sms } from "@smsbook/core"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as ShortMessage from "../src/ShortMessage.ts"
import { gsmText, smsText } from "./arbitraries.ts"

const decodeAll = (encoded: ReadonlyArray<ShortMessage.Encoded>, packing: ShortMessage.Packing) =>
  encoded.map((part) => {
    const data = ShortMessage.userData(part.short_message, part.esm_class)
    const text = ShortMessage.decodeText(data.body, part.data_coding, { packing, udhLength: data.udhLength })
    if (text instanceof Error) throw text
    return { text, concatenation: data.concatenation }
  })

describe("ShortMessage", () => {
  it("packs septets as 3GPP TS 23.038 shows ('hellohello' → E8329BFD4697D9EC37)", () => {
    const septets = ShortMessage.septets("hellohello")
    expect(septets).toBeDefined()
    expect(Buffer.from(ShortMessage.pack(septets ?? new Uint8Array())).toString("hex")).toBe("e8329bfd4697d9ec37")
  })

  it("writes extension characters as escape pairs and reads them back", () => {
    expect([...ShortMessage.septets("€[") ?? []]).toEqual([0x1b, 0x65, 0x1b, 0x3c])
    expect(ShortMessage.fromSeptets(Uint8Array.of(0x1b, 0x65, 0x1b, 0x41))).toBe("€A")
  })

  it("reads a 16-bit reference concatenation IE and skips other IEs", () => {
    const octets = Uint8Array.of(0x0a, 0x0a, 0x02, 0x00, 0x00, 0x08, 0x04, 0x12, 0x34, 0x03, 0x02, 0x41)
    const data = ShortMessage.userData(octets, 0x40)
    expect(data.concatenation).toEqual({ reference: 0x1234, total: 3, sequence: 2 })
    expect([...data.body]).toEqual([0x41])
  })

  it("decodes data_coding 0, 1, 3 and 8 and refuses others with the value", () => {
    const options = { packing: "unpacked", udhLength: 0 } as const
    expect(ShortMessage.decodeText(Uint8Array.of(0x00, 0x41, 0x11), 0, options)).toBe("@A_")
    expect(ShortMessage.decodeText(Uint8Array.of(0x40, 0x41), 1, options)).toBe("@A")
    expect(ShortMessage.decodeText(Uint8Array.of(0xe9, 0x41), 3, options)).toBe("éA")
    expect(ShortMessage.decodeText(Uint8Array.of(0x04, 0x36, 0xd8, 0x3d, 0xde, 0x00), 8, options)).toBe("ж😀")
    const refused = ShortMessage.decodeText(Uint8Array.of(1), 4, options)
    expect(refused).toBeInstanceOf(ShortMessage.UnsupportedDataCoding)
    expect(String(refused)).toContain("data_coding 4")
  })

  it("reads the data codings of GSM 03.38 an SMSC passes through: the general group with a message class (0x10–0x1F) and the message waiting groups (0xC0–0xEF)", () => {
    const options = { packing: "unpacked", udhLength: 0 } as const
    const gsm = Uint8Array.of(0x53, 0x54, 0x4f, 0x50)
    const ucs2 = Uint8Array.of(0x00, 0x53, 0x00, 0x54, 0x00, 0x4f, 0x00, 0x50)
    for (const coding of [0x10, 0x11, 0x12, 0x13, 0xc0, 0xc8, 0xd0, 0xdb]) expect(ShortMessage.decodeText(gsm, coding, options), `0x${coding.toString(16)}`).toBe("STOP")
    for (const coding of [0x18, 0x19, 0x1b, 0xe0, 0xe8]) expect(ShortMessage.decodeText(ucs2, coding, options), `0x${coding.toString(16)}`).toBe("STOP")
    expect(ShortMessage.decodeText(Uint8Array.of(0xe9), 0x14, options)).toBe("é")
    // Compressed (0x20–0x3F) and the reserved alphabet stay refused.
    expect(ShortMessage.decodeText(gsm, 0x20, options)).toBeInstanceOf(ShortMessage.UnsupportedDataCoding)
    expect(ShortMessage.decodeText(gsm, 0x1c, options)).toBeInstanceOf(ShortMessage.UnsupportedDataCoding)
  })

  it("law: packing then unpacking gives the septets back, with any fill", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }).map((a) => a.map((v) => v & 0x7f)), fc.integer({ min: 0, max: 6 }), (values, fill) => {
      expect([...ShortMessage.unpack(ShortMessage.pack(values, fill), values.length, fill)]).toEqual([...values])
    }))
  })

  it("law: every encoded part decodes to core's part, in core's encoding, one PDU per segment", () => {
    fc.assert(fc.property(smsText, fc.constantFrom<ShortMessage.Packing>("unpacked", "packed"), fc.integer({ min: 0, max: 255 }), (text, packing, reference) => {
      const analysis = Sms.analyze(text)
      const encoded = ShortMessage.encodeParts(analysis.parts, { packing, reference })
      expect(encoded.length).toBe(analysis.segments)
      const decoded = decodeAll(encoded, packing)
      // Packed, a part ending in CR on an octet boundary carries a second CR (23.038 6.1.2.3.1): the law below.
      const texts = decoded.map((part, index) =>
        packing === "packed" && part.text === `${analysis.parts[index] ?? ""}\r` && part.text.endsWith("\r\r") ? part.text.slice(0, -1) : part.text)
      expect(texts).toEqual(analysis.parts)
      for (const [index, part] of encoded.entries()) {
        expect(part.data_coding).toBe(analysis.encoding === "UCS-2" ? 8 : 0)
        expect(part.short_message.length).toBeLessThanOrEqual(packing === "packed" || analysis.encoding === "UCS-2" ? 140 : 160)
        expect(decoded[index]?.concatenation).toEqual(
          encoded.length === 1 ? undefined : { reference, total: encoded.length, sequence: index + 1 }
        )
      }
    }), { numRuns: 500 })
  })

  it("law: a packed GSM text ending in CR keeps it (doubled where 23.038 6.1.2.3.1 says so, which displays the same)", () => {
    // Below a full SMS: a full one has no room for the second CR (the law further down).
    fc.assert(fc.property(gsmText(150).filter((text) => (ShortMessage.septets(text)?.length ?? 0) < 159), (text) => {
      const withCr = `${text}\r`
      const [part] = ShortMessage.encodeParts([withCr], { packing: "packed", reference: 0 })
      expect([withCr, `${withCr}\r`]).toContain(decodeAll(part === undefined ? [] : [part], "packed")[0]?.text)
    }))
  })

  it("law: the reference of a message to a number is stable and within 0–255", () => {
    fc.assert(fc.property(fc.string(), fc.string(), (id, msisdn) => {
      const reference = ShortMessage.referenceOf(id, msisdn)
      expect(reference).toBe(ShortMessage.referenceOf(id, msisdn))
      expect(reference >= 0 && reference <= 255).toBe(true)
    }))
  })
})

describe("ShortMessage: packed parts stay within 140 octets", () => {
  it("law: a packed part, UDH included, never exceeds 140 octets, even when it fills its septets and ends in CR", () => {
    const full = fc.tuple(gsmText(200), fc.boolean()).map(([text, cr]) => {
      // Basic characters only, to fill a part to the last septet: 152 or 159 of them, then a CR.
      const basic = [...text].filter((char) => ShortMessage.septets(char)?.length === 1).join("").padEnd(159, "a")
      return cr ? `${basic.slice(0, 152)}\r` : `${basic.slice(0, 159)}\r`
    })
    fc.assert(fc.property(full, (text) => {
      const total = text.length === 153 ? 2 : 1
      const part = ShortMessage.encodePart(text, { encoding: "GSM-7", packing: "packed", reference: 1, sequence: 1, total })
      expect(part.short_message.length).toBeLessThanOrEqual(140)
      const data = ShortMessage.userData(part.short_message, part.esm_class)
      const decoded = ShortMessage.decodeText(data.body, part.data_coding, { packing: "packed", udhLength: data.udhLength })
      // The CR may not survive (no room for the second CR 23.038 asks for): all before it does.
      expect([text, text.slice(0, -1)]).toContain(decoded)
    }))
  })
})
