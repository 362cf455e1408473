/**
 * One part as a smsbox `sendsms` request: the part's own UDH and octets (so Kannel sends exactly
 * core's part, never splits it again), and a `dlr-url` that names the part when its report comes back.
 */
import type { PartQueue } from "@smsbook/core"
import type { KannelConfig } from "./KannelConfig.ts"
import * as ShortMessage from "./ShortMessage.ts"

/** What the Kannel link sends: the whole request URL, the part's number, and the id its reports carry. */
export type Request = {
  readonly url: string
  readonly destination: string
  readonly id: string
}

/** The path of smsbook's delivery-report callback under its server (`@smsbook/http`'s `KannelCallbacks`). */
export const dlrPath = "/kannel/dlr"

/**
 * Kannel's report kinds asked for (`dlr-mask`): 1 delivered, 2 failed at the handset's network, 16
 * refused by the SMSC. Not 4 (buffered) or 8 (the SMSC took it): they settle nothing.
 */
export const dlrMask = 1 | 2 | 16

/** The id the part's reports carry: its place in the outbox, unique in the store. */
export const idOf = (seq: number): string => `k${seq}`

const unreserved = /[A-Za-z0-9\-._~]/

/** Percent-encodes octets as a query value: each octet stands for itself (smsbox reads them back as octets). */
export const encodeOctets = (octets: Uint8Array): string => {
  let out = ""
  for (const octet of octets) {
    const char = String.fromCharCode(octet)
    out += octet < 0x80 && unreserved.test(char) ? char : `%${octet.toString(16).toUpperCase().padStart(2, "0")}`
  }
  return out
}

const encodeText = (text: string): string => encodeOctets(new TextEncoder().encode(text))

/**
 * The `dlr-url` of a part: `<callback>/kannel/dlr?key=…&id=…&to=…&type=%d&answer=%A`. Kannel fills
 * in `%d` (the report kind) and `%A` (the SMSC's receipt text) when the report comes.
 */
export const dlrUrl = (config: KannelConfig, id: string, msisdn: string): string | undefined => {
  if (config.callback === undefined) return undefined
  const key = config.callbackKey === undefined ? "" : `key=${config.callbackKey}&`
  return `${config.callback}${dlrPath}?${key}id=${id}&to=${encodeText(msisdn)}&type=%d&answer=%A`
}

/**
 * The sendsms request of a claimed part with its encoded fields (`ShortMessage.encodePart`): a
 * UCS-2 part goes as its UTF-16BE octets (`coding=2`, `charset=UTF-16BE`), a GSM-7 part as its text
 * (`coding=0`, `charset=UTF-8`, Kannel writes the GSM septets), each with its UDH when the message
 * has several parts.
 */
export const make = (part: PartQueue.Claimed, encoded: ShortMessage.Encoded, config: KannelConfig): Request => {
  const octets = encoded.short_message
  const udhLength = (encoded.esm_class & ShortMessage.udhIndicator) !== 0 ? (octets[0] ?? 0) + 1 : 0
  const ucs2 = encoded.data_coding === ShortMessage.dataCoding.ucs2
  const id = idOf(part.seq)
  const query: Array<readonly [string, string]> = [
    ["username", encodeText(config.username)],
    ["password", encodeText(config.password)],
    ["from", encodeText(part.short_code)],
    ["to", encodeText(part.msisdn)],
    ["coding", ucs2 ? "2" : "0"],
    ["charset", ucs2 ? "UTF-16BE" : "UTF-8"],
    ["text", ucs2 ? encodeOctets(octets.subarray(udhLength)) : encodeText(part.text)]
  ]
  if (udhLength > 0) query.push(["udh", encodeOctets(octets.subarray(0, udhLength))])
  if (config.smsc !== undefined) query.push(["smsc", encodeText(config.smsc)])
  const report = config.receipts ? dlrUrl(config, id, part.msisdn) : undefined
  if (report !== undefined) query.push(["dlr-mask", String(dlrMask)], ["dlr-url", encodeText(report)])
  return {
    url: `${config.sendsmsUrl}?${query.map(([name, value]) => `${name}=${value}`).join("&")}`,
    destination: part.msisdn,
    id
  }
}
