/**
 * SMPP delivery receipts: a deliver_sm whose esm_class says "SMSC delivery receipt", read from the
 * `receipted_message_id`/`message_state` TLVs or the `id:… stat:…` text of SMPP 3.4 Appendix B.
 */

/** Where a part stands after the SMSC accepted it. Final states never change again. */
export type State = "enroute" | "accepted" | "delivered" | "undeliverable" | "expired" | "rejected" | "deleted" | "unknown"

/** The states that count in `error_count`: the SMS was registered as failed. */
export const failed: ReadonlySet<State> = new Set(["undeliverable", "expired", "rejected", "deleted"])

/** The states after which no other receipt is expected. */
export const final: ReadonlySet<State> = new Set(["delivered", "undeliverable", "expired", "rejected", "deleted"])

export interface Receipt {
  /** The SMSC's id of the part, as its submit_sm_resp gave it (or as the receipt text wrote it). */
  readonly messageId: string
  readonly state: State
  /** The network error code of the text form (`err:`), when given. */
  readonly error?: string
}

/** esm_class message type bits (2–5): 0x04 is an SMSC delivery receipt, 0x20 an intermediate notification. */
export const isReceipt = (esmClass: number): boolean => (esmClass & 0x3c) === 0x04 || (esmClass & 0x3c) === 0x20

/** SMPP 3.4 5.2.28 message_state values. */
const byMessageState: ReadonlyMap<number, State> = new Map([
  [1, "enroute"], [2, "delivered"], [3, "expired"], [4, "deleted"], [5, "undeliverable"], [6, "accepted"], [7, "unknown"], [8, "rejected"]
])

/** SMPP 3.4 Appendix B `stat:` values (and the spellings SMSCs use for them). */
const byStat: ReadonlyMap<string, State> = new Map([
  ["DELIVRD", "delivered"], ["DELIVERED", "delivered"], ["EXPIRED", "expired"], ["DELETED", "deleted"],
  ["UNDELIV", "undeliverable"], ["UNDELIVERABLE", "undeliverable"], ["ACCEPTD", "accepted"], ["ACCEPTED", "accepted"],
  ["UNKNOWN", "unknown"], ["REJECTD", "rejected"], ["REJECTED", "rejected"], ["ENROUTE", "enroute"]
])

const field = (text: string, name: string): string | undefined => {
  const match = new RegExp(`(?:^|\\s)${name}:(\\S*)`, "i").exec(text)
  return match?.[1]
}

/**
 * The receipt a deliver_sm carries: the TLVs win when present (they are typed), else the text.
 * A state neither table knows (SMPP 5.0's SKIPPED, an SMSC's own word) is `unknown`, so the part is
 * still known to have reached the SMSC. Undefined when neither names an id and a state; the caller
 * logs such a PDU, it is not dropped silently.
 */
export const parse = (fields: {
  readonly receipted_message_id?: unknown
  readonly message_state?: unknown
  readonly text: string
}): Receipt | undefined => {
  const textId = field(fields.text, "id")
  const stat = field(fields.text, "stat")
  const error = field(fields.text, "err")
  const tlvId = typeof fields.receipted_message_id === "string" && fields.receipted_message_id !== "" ? fields.receipted_message_id : undefined
  const tlvState = typeof fields.message_state === "number" ? byMessageState.get(fields.message_state) : undefined
  const messageId = tlvId ?? textId
  const stated = typeof fields.message_state === "number" || (stat !== undefined && stat !== "")
  const state = tlvState ?? (stat === undefined ? undefined : byStat.get(stat.toUpperCase())) ?? (stated ? "unknown" : undefined)
  if (messageId === undefined || messageId === "" || state === undefined) return undefined
  return error === undefined ? { messageId, state } : { messageId, state, error }
}

/**
 * The ids a receipt's id may stand for, itself first: the other spellings of the same number. SMSCs
 * answer submit_sm in hex and write receipts in decimal (or back), pad a decimal id to Appendix B's
 * 10 digits or a hex one to 8 or 16, and differ in the case of hex digits. An id of digits only is
 * read as decimal (up to 20 digits, 64 bits); one with a hex letter as hex (up to 16).
 */
export const idCandidates = (id: string): ReadonlyArray<string> => {
  const value = /^\d{1,20}$/.test(id) ? BigInt(id) : /^[0-9a-f]{1,16}$/i.test(id) ? BigInt(`0x${id}`) : undefined
  if (value === undefined) return [id]
  const decimal = value.toString()
  const hex = value.toString(16)
  const hexes = [hex, hex.padStart(8, "0"), hex.padStart(16, "0")]
  return [...new Set([id, decimal, decimal.padStart(10, "0"), ...hexes, ...hexes.map((spelling) => spelling.toUpperCase())])]
}

/** The Appendix B text of a receipt, as SMSCs write it (the test SMSC sends this form). */
export const format = (receipt: { readonly messageId: string; readonly stat: string; readonly error?: string; readonly text?: string }): string => {
  const stamp = "2601011200"
  const delivered = receipt.stat === "DELIVRD" ? "001" : "000"
  return `id:${receipt.messageId} sub:001 dlvrd:${delivered} submit date:${stamp} done date:${stamp} stat:${receipt.stat} err:${receipt.error ?? "000"} text:${(receipt.text ?? "").slice(0, 20)}`
}
