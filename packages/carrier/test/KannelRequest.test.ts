import { Sms } from "@smsbook/core"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as CarrierConfig from "../src/CarrierConfig.ts"
import * as KannelConfig from "../src/KannelConfig.ts"
import * as KannelRequest from "../src/KannelRequest.ts"
import * as ShortMessage from "../src/ShortMessage.ts"
import { smsText } from "./arbitraries.ts"

/** The test's own reading of a query value as octets (encodeOctets leaves only ASCII literal). */
const octetsOf = (value: string): Uint8Array =>
  Uint8Array.from((value.match(/%[0-9A-F]{2}|[^%]/g) ?? []).map((token) => token.length === 3 ? Number.parseInt(token.slice(1), 16) : token.charCodeAt(0)))

const query = (url: string): Map<string, string> =>
  new Map(url.slice(url.indexOf("?") + 1).split("&").map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)] as const))

const config = (overrides: Partial<KannelConfig.KannelConfig> = {}): KannelConfig.KannelConfig => ({
  ...KannelConfig.defaults,
  sendsmsUrl: "http://127.0.0.1:13013/cgi-bin/sendsms",
  username: "smsbook",
  password: "p&ss word",
  callback: "http://127.0.0.1:8080",
  callbackKey: "smsbook_abc-DEF_123",
  ...overrides
})

/** The requests of a message to one number, as the dispatcher makes them from core's parts. */
const requestsOf = (text: string, settings: KannelConfig.KannelConfig, seq = 100) => {
  const { parts, encoding } = Sms.analyze(text)
  return parts.map((part, index) => {
    const claimed = { message_id: "m1", msisdn: "447400123456", short_code: "SHOP", part: index + 1, parts: parts.length, text: part, seq: seq + index }
    const encoded = ShortMessage.encodePart(part, { encoding, packing: "unpacked", reference: 42, sequence: index + 1, total: parts.length })
    return { claimed, encoded, request: KannelRequest.make(claimed, encoded, settings) }
  })
}

describe("KannelRequest", () => {
  it("percent-encodes every octet but the unreserved ASCII ones, and the encoding reads back", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (octets) => {
      const encoded = KannelRequest.encodeOctets(octets)
      expect(encoded).toMatch(/^(?:[A-Za-z0-9\-._~]|%[0-9A-F]{2})*$/)
      expect([...octetsOf(encoded)]).toEqual([...octets])
    }))
  })

  it("sends each of core's parts as its own request: its UDH, and octets Kannel will not cut again (UCS-2 as UTF-16BE, GSM-7 as UTF-8 text)", () => {
    fc.assert(fc.property(smsText, (text) => {
      const requests = requestsOf(text, config())
      expect(requests.length).toBe(Sms.analyze(text).segments)
      for (const { claimed, encoded, request } of requests) {
        const params = query(request.url)
        const ucs2 = encoded.data_coding === ShortMessage.dataCoding.ucs2
        expect([params.get("coding"), params.get("charset")]).toEqual(ucs2 ? ["2", "UTF-16BE"] : ["0", "UTF-8"])
        const body = octetsOf(params.get("text") ?? "")
        const decoded = ucs2 ? new TextDecoder("utf-16be").decode(body) : new TextDecoder().decode(body)
        expect(decoded).toBe(claimed.text)
        const udh = params.get("udh")
        if (claimed.parts > 1) {
          expect([...octetsOf(udh ?? "")]).toEqual([...ShortMessage.concatenationUdh({ reference: 42, total: claimed.parts, sequence: claimed.part })])
          // Within one SMS with its UDH: 140 octets (UCS-2) or 153 septets (GSM-7).
          if (ucs2) expect(body.length).toBeLessThanOrEqual(134)
          else expect(ShortMessage.septets(claimed.text)?.length ?? 0).toBeLessThanOrEqual(153)
        } else expect(udh).toBeUndefined()
        expect([params.get("to"), params.get("from"), request.destination, request.id]).toEqual(["447400123456", "SHOP", "447400123456", `k${claimed.seq}`])
      }
    }))
  })

  it("asks for reports with a dlr-url naming the part, its number and the key, Kannel's %d and %A left to fill in", () => {
    const [first] = requestsOf("Hello", config(), 7)
    const params = query(first?.request.url ?? "")
    expect(params.get("dlr-mask")).toBe("19")
    const dlr = new TextDecoder().decode(octetsOf(params.get("dlr-url") ?? ""))
    expect(dlr).toBe("http://127.0.0.1:8080/kannel/dlr?key=smsbook_abc-DEF_123&id=k7&to=447400123456&type=%d&answer=%A")
    expect(new TextDecoder().decode(octetsOf(params.get("password") ?? ""))).toBe("p&ss word")
  })

  it("asks for no report without receipts, routes through the named smsc", () => {
    const [first] = requestsOf("Hello", config({ receipts: false, smsc: "operator one" }))
    const params = query(first?.request.url ?? "")
    expect([params.has("dlr-url"), params.has("dlr-mask"), params.get("smsc")]).toEqual([false, false, "operator%20one"])
  })
})

describe("KannelConfig", () => {
  it("reads kannel:// URLs: host, port, user, callback, key and limits", () => {
    const parsed = KannelConfig.parse("kannel://smsbook:s%40cret@127.0.0.1:14013?callback=http://127.0.0.1:8080/&key=smsbook_K1&smsc=op&window=4&tps=20&path=/send&connect_timeout_ms=2500")
    expect(parsed._tag).toBe("Success")
    if (parsed._tag !== "Success") return
    expect(parsed.success).toMatchObject({
      sendsmsUrl: "http://127.0.0.1:14013/send",
      username: "smsbook",
      password: "s@cret",
      callback: "http://127.0.0.1:8080",
      callbackKey: "smsbook_K1",
      smsc: "op",
      window: 4,
      tps: 20,
      connectTimeoutMs: 2500,
      receipts: true
    })
    const bare = KannelConfig.parse("kannel://u:p@box?receipts=false", { tps: 5 })
    expect(bare._tag === "Success" && [bare.success.sendsmsUrl, bare.success.tps, bare.success.callback, bare.success.connectTimeoutMs]).toEqual([
      "http://box:13013/cgi-bin/sendsms",
      5,
      undefined,
      10_000
    ])
  })

  it("refuses bad URLs with an InvalidField naming the carrier, the masked value and the reason", () => {
    const cases: ReadonlyArray<readonly [string, RegExp]> = [
      ["kannel://u:p@h", /needs callback=/],
      ["kannel://:p@h?receipts=false", /sendsms-user/],
      ["kannel://u:p@h?receipts=false&window=0", /window=0/],
      ["kannel://u:p@h?receipts=false&connect_timeout_ms=5", /connect_timeout_ms=5/],
      ["kannel://u:p@h?receipts=maybe", /receipts=maybe/],
      ["kannel://u:p@h?callback=ftp://x", /callback=ftp/],
      ["kannel://u:p@h?callback=http://x&key=a%25b", /key must be/],
      ["kannel://u:p@h?receipts=false&colour=red", /unknown parameter colour/],
      ["smpp://u:p@h", /scheme smpp: is not kannel:/]
    ]
    for (const [url, reason] of cases) {
      const parsed = KannelConfig.parse(url)
      expect(parsed._tag, url).toBe("Failure")
      if (parsed._tag !== "Failure") continue
      expect(parsed.failure.field).toBe("carrier")
      expect(parsed.failure.reason).toMatch(reason)
    }
  })

  it("masks the password and the key whatever they are", () => {
    const secret = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => /^[A-Za-z0-9_-]+$/.test(s)).map((s) => `Z9${s}`)
    fc.assert(fc.property(secret, secret, (password, key) => {
      const masked = KannelConfig.mask(`kannel://smsbook:${password}@127.0.0.1:13013?callback=http://127.0.0.1:8080&key=${key}&window=2`)
      expect(masked).not.toContain(password)
      expect(masked).not.toContain(key)
      expect(masked).toContain("window=2")
    }))
  })
})

describe("CarrierConfig", () => {
  it("reads a carrier URL by its scheme and masks either kind", () => {
    const smpp = CarrierConfig.parse(" smpp://smsbook:secret@127.0.0.1:2775?tps=5")
    const kannel = CarrierConfig.parse("kannel://smsbook:secret@127.0.0.1?callback=http://127.0.0.1:8080&key=smsbook_K")
    expect([smpp._tag, smpp._tag === "Success" && KannelConfig.is(smpp.success)]).toEqual(["Success", false])
    expect([kannel._tag, kannel._tag === "Success" && KannelConfig.is(kannel.success)]).toEqual(["Success", true])
    const other = CarrierConfig.parse("http://smsbook:secret@127.0.0.1")
    expect(other._tag === "Failure" && [other.failure.field, other.failure.reason]).toEqual(["carrier", expect.stringMatching(/smpp:\/\/.*kannel:\/\//)])
    expect(CarrierConfig.mask("smpp://smsbook:secret@h:1")).toBe("smpp://smsbook:***@h:1")
    expect(CarrierConfig.mask("kannel://smsbook:secret@h:1?key=smsbook_K&window=2")).toBe("kannel://smsbook:***@h:1?key=***&window=2")
  })
})
