/**
 * The submit_sm of one part: the destination as the international number it is, the sender typed
 * by its form (international number, short code or alphanumeric), the encoded message fields, and a receipt request.
 */
import type { Carrier } from "@smsbook/core"
import type * as ShortMessage from "../ShortMessage.ts"

const numeric = /^\d+$/
/** `+` and digits, with the spaces, hyphens, dots and brackets people write between them (`+44 7400 000001`). */
const international = /^\+\d[\d ().-]*$/

/**
 * A sender: `+` and digits, or digits of 9 or more, an international number (TON 1, NPI 1, its digits only);
 * fewer digits a short code (TON 3); else alphanumeric (TON 5).
 */
const address = (value: string): { readonly ton: number; readonly npi: number; readonly addr: string } =>
  international.test(value)
    ? { ton: 1, npi: 1, addr: value.replace(/\D/g, "") }
    : numeric.test(value)
    ? (value.length <= 8 ? { ton: 3, npi: 0, addr: value } : { ton: 1, npi: 1, addr: value })
    : { ton: 5, npi: 0, addr: value }

/** An alphanumeric sender as handsets show it: at most 11 characters (3GPP TS 23.040 §9.1.2.5), ASCII as the PDU writes it. */
const alphanumeric = /^[\x20-\x7e]{1,11}$/

/**
 * Why `value` cannot be a submit_sm's sender, if it cannot: an international number has at most 15 digits (E.164), an
 * alphanumeric one at most 11 ASCII characters. An SMSC refuses such a sender (ESME_RINVSRCADR) or cuts it, part by part.
 */
export const senderProblem = (value: string): string | undefined => {
  const { addr, ton } = address(value)
  if (ton === 1 && addr.length > 15) return "an SMPP sender written as an international number must have at most 15 digits (E.164)"
  if (ton === 5 && !alphanumeric.test(addr)) {
    return "an SMPP sender that is not a number must be at most 11 ASCII characters (letters, digits, spaces, signs): SMSCs refuse or cut a longer one"
  }
  return undefined
}

/**
 * The submit_sm parameters of `part` with its encoded fields. The destination is an msisdn (E.164,
 * calling code included) whatever its length: 8 digits in Saint Helena or the Cook Islands are not a short code.
 */
export const params = (part: Carrier.Part, encoded: ShortMessage.Encoded, receipts: boolean): Record<string, unknown> => {
  const source = address(part.short_code)
  return {
    source_addr_ton: source.ton,
    source_addr_npi: source.npi,
    source_addr: source.addr,
    dest_addr_ton: 1,
    dest_addr_npi: 1,
    destination_addr: part.msisdn,
    registered_delivery: receipts ? 1 : 0,
    data_coding: encoded.data_coding,
    esm_class: encoded.esm_class,
    short_message: Buffer.from(encoded.short_message)
  }
}
