/**
 * What comes from the SMSC on a bind: delivery receipts handed to the caller's handler, inbound SMS
 * decoded, reassembled and recorded, each deliver_sm answered once it is handled (a part of a
 * concatenated SMS, once its message is, or after a short hold).
 */
import * as Link from "./link.ts"
import * as Raw from "./raw.ts"
import * as Reassembly from "../Reassembly.ts"
import * as Receipt from "../Receipt.ts"
import * as ShortMessage from "../ShortMessage.ts"

/** What an inbound SMS did, for the log. */
export type InboundNotice =
  | { readonly _tag: "Inbound"; readonly from: string; readonly text: string; readonly complete: boolean; readonly missing: ReadonlyArray<number> }
  | { readonly _tag: "InboundRefused"; readonly from: string; readonly reason: string; readonly status: number }
  | { readonly _tag: "UnreadableReceipt"; readonly text: string }

export interface Handlers {
  /** Records an inbound SMS; resolves with the status to answer (0 once committed). */
  readonly receive: (from: string, text: string) => Promise<number>
  /** Handles a readable receipt and its handset (the receipt's source); resolves with the status to answer. */
  readonly receipt: (receipt: Receipt.Receipt, handset: string) => Promise<number>
  readonly notify: (notice: InboundNotice) => void
}

export interface Inbound {
  readonly handle: Link.InboundHandler
  /** Records the partial messages whose parts stopped coming; call it now and then. */
  readonly sweep: (now: number) => void
}

/** The text octets of an inbound PDU: `message_payload` when the SMSC used it, else `short_message`. */
const octetsOf = (pdu: Link.InboundPdu): Uint8Array => {
  const payload = Raw.bytes(pdu["message_payload"])
  return payload.length > 0 ? payload : Raw.bytes(pdu["short_message"])
}

const sarOf = (pdu: Link.InboundPdu): ShortMessage.Concatenation | undefined => {
  const reference = pdu["sar_msg_ref_num"]
  const total = pdu["sar_total_segments"]
  const sequence = pdu["sar_segment_seqnum"]
  return typeof reference === "number" && typeof total === "number" && typeof sequence === "number"
    ? { reference, total, sequence }
    : undefined
}

/**
 * The sender as written for `receiveMessage`: an address the SMSC marks international (TON 1) gets its `+`, so it is
 * never read as a national number of the default country; others (national, TON 2; unknown, TON 0) are read as written,
 * as is a TON 1 address that already carries an international prefix (`00…`, a leading `0`).
 */
export const senderOf = (pdu: Link.InboundPdu): string => {
  const address = String(pdu["source_addr"] ?? "")
  return Number(pdu["source_addr_ton"] ?? 0) === 1 && /^[1-9]\d*$/.test(address) ? `+${address}` : address
}

/**
 * How long a part of a concatenated SMS waits for its answer while its message is not whole: a quarter
 * of the reassembly timeout, and at most 1 s. An SMSC with a deliver window of 1 sends the next part
 * only once this one is answered, so a part held until its message is whole would hold the rest back.
 * Parts sent together (the usual case) are all in before the hold ends, and answered only once their
 * message is recorded; a held part answered is kept until its message is.
 */
const partHoldMs = (reassemblyTimeoutMs: number): number => Math.min(1000, reassemblyTimeoutMs / 4)

/** An SMPP message_id as SMSCs write it: printable ASCII octets. */
const printableAscii = /^[\x21-\x7e]+$/

/** A part of a concatenated SMS waiting for its answer. */
interface HeldPart {
  readonly answer: (status: number) => void
  /** Its message is whole and being recorded: from now on only the record answers it. */
  readonly recording: () => void
}

export const make = (
  options: { readonly packing: ShortMessage.Packing; readonly reassemblyTimeoutMs: number },
  handlers: Handlers
): Inbound => {
  const reassembler = Reassembly.make<HeldPart>(options.reassemblyTimeoutMs)

  const settle = (assembled: Reassembly.Assembled<HeldPart>) => {
    // A hold ending during a slow record would answer 0 for a message a failed record then loses.
    assembled.tokens.forEach((part) => part.recording())
    handlers.notify({ _tag: "Inbound", from: assembled.from, text: assembled.text, complete: assembled.complete, missing: assembled.missing })
    handlers.receive(assembled.from, assembled.text).then(
      (status) => assembled.tokens.forEach((part) => part.answer(status)),
      () => assembled.tokens.forEach((part) => part.answer(Link.statusTemporaryError))
    )
  }

  const handle = (pdu: Link.InboundPdu): Promise<number> => {
    const esmClass = Number(pdu["esm_class"] ?? 0)
    const octets = octetsOf(pdu)
    const data = ShortMessage.userData(octets, esmClass)
    const text = ShortMessage.decodeText(data.body, Number(pdu["data_coding"] ?? 0), { packing: options.packing, udhLength: data.udhLength })
    if (Receipt.isReceipt(esmClass)) {
      // SMSCs write Appendix B's text as ASCII octets whatever data_coding says: read through GSM-7 it lost an
      // id's `_` `@` `$`, and on a packed link all of it. The decoded text is tried when the ASCII reading gives no
      // id or one with control characters, which no message_id has (a receipt in UCS-2, or in GSM-7's 0x00 0x02 0x11).
      const ascii = Buffer.from(data.body).toString("latin1")
      const readable = text instanceof Error ? ascii : text
      const fields = { receipted_message_id: pdu["receipted_message_id"], message_state: pdu["message_state"] }
      const asAscii = Receipt.parse({ ...fields, text: ascii })
      const receipt = asAscii !== undefined && printableAscii.test(asAscii.messageId)
        ? asAscii
        : Receipt.parse({ ...fields, text: readable }) ?? asAscii
      if (receipt === undefined) {
        handlers.notify({ _tag: "UnreadableReceipt", text: readable })
        return Promise.resolve(0)
      }
      return handlers.receipt(receipt, String(pdu["source_addr"] ?? ""))
    }
    const from = senderOf(pdu)
    if (text instanceof Error) {
      handlers.notify({ _tag: "InboundRefused", from, reason: text.message, status: Link.statusPermanentError })
      return Promise.resolve(Link.statusPermanentError)
    }
    const concatenation = data.concatenation ?? sarOf(pdu)
    if (concatenation === undefined || concatenation.total <= 1) {
      handlers.notify({ _tag: "Inbound", from, text, complete: true, missing: [] })
      return handlers.receive(from, text)
    }
    // The part is answered once its whole message is recorded (or timed out and recorded), or when its hold ends.
    return new Promise<number>((resolve) => {
      let answered = false
      const answer = (status: number) => {
        if (answered) return
        answered = true
        clearTimeout(hold)
        resolve(status)
      }
      const hold = setTimeout(() => answer(0), partHoldMs(options.reassemblyTimeoutMs))
      const part: HeldPart = { answer, recording: () => clearTimeout(hold) }
      const assembled = reassembler.add({ from, ...concatenation, text, token: part }, Date.now())
      if (assembled !== undefined) settle(assembled)
    })
  }

  return {
    handle,
    sweep: (now) => {
      for (const assembled of reassembler.expire(now)) settle(assembled)
    }
  }
}
