/**
 * Puts the `smpp` package's message fields in raw mode: `short_message` and `message_payload` are
 * read and written as the bytes on the wire, so encoding, UDH and decoding stay smsbook's (core's parts);
 * and `receipted_message_id` is read within its TLV's length.
 */
import smpp from "smpp"

const rawCommands = ["submit_sm", "deliver_sm", "data_sm"] as const

let applied = false

/** A TLV's C-Octet String: up to its NUL, never past its length. */
const readCString = (buffer: Buffer, offset: number, length: number): string => {
  const nul = buffer.indexOf(0, offset)
  return buffer.toString("ascii", offset, nul < 0 ? offset + length : Math.min(nul, offset + length))
}

/**
 * The package decodes these fields with its own guesses (GSM table, iconv) and splits the UDH,
 * losing bytes it does not know; smsbook needs the octets. Idempotent; the package is loaded only
 * by smsbook's carrier and test SMSC, so no other user in the process depends on the old filters.
 */
export const apply = (): void => {
  if (applied) return
  for (const command of rawCommands) {
    const params = smpp.commands[command]?.params
    const field = params?.["short_message"]
    if (field !== undefined) delete field.filter
  }
  const payload = smpp.tlvs["message_payload"]
  if (payload !== undefined) delete payload.filter
  // A C-Octet String the package reads on to the next NUL, past the TLV's end: an SMSC that leaves out the NUL
  // had the next TLV's octets read into the id, and its receipt named no part. Read within the TLV's length.
  const receipted = smpp.tlvs["receipted_message_id"]
  if (receipted !== undefined) receipted.type = Object.assign({}, receipted.type, { read: readCString })
  applied = true
}

/** The bytes of a raw field as the session read them (a Buffer), or empty when absent. */
export const bytes = (value: unknown): Uint8Array => value instanceof Uint8Array ? value : new Uint8Array(0)
