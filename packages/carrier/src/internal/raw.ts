/**
 * Puts the `smpp` package's message fields in raw mode: `short_message` and `message_payload` are
 * read and written as the bytes on the wire, so encoding, UDH and decoding stay smsbook's (core's parts).
 */
import smpp from "smpp"

const rawCommands = ["submit_sm", "deliver_sm", "data_sm"] as const

let applied = false

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
  applied = true
}

/** The bytes of a raw field as the session read them (a Buffer), or empty when absent. */
export const bytes = (value: unknown): Uint8Array => value instanceof Uint8Array ? value : new Uint8Array(0)
