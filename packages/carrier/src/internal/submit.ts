/**
 * The submit_sm of one part: the destination as the international number it is, the sender typed
 * by its form (international number, short code or alphanumeric), the encoded message fields, and a receipt request.
 */
import type { Carrier } from "@smsbook/core"
import type * as ShortMessage from "../ShortMessage.ts"

const numeric = /^\d+$/
const international = /^\+\d+$/

/**
 * A sender: `+` and digits, or digits of 9 or more, an international number (TON 1, NPI 1, written without
 * its `+`); fewer digits a short code (TON 3); else alphanumeric (TON 5).
 */
export const address = (value: string): { readonly ton: number; readonly npi: number; readonly addr: string } =>
  international.test(value)
    ? { ton: 1, npi: 1, addr: value.slice(1) }
    : numeric.test(value)
    ? (value.length <= 8 ? { ton: 3, npi: 0, addr: value } : { ton: 1, npi: 1, addr: value })
    : { ton: 5, npi: 0, addr: value }

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
