/**
 * core's `Carrier` over SMPP 3.4: hands every part to the SMSC through one transceiver bind, turns
 * delivery receipts into part states and `error_count`, and records inbound SMS through `receiveMessage`.
 */
import { Account, Carrier, CarrierFailure, ContactStore, MessageStore, Messaging } from "@smsbook/core"
import { Context, Effect, Layer } from "effect"
import type { Pdu } from "smpp"
import * as Deliveries from "./Deliveries.ts"
import * as Link from "./internal/link.ts"
import * as Raw from "./internal/raw.ts"
import * as Reassembly from "./Reassembly.ts"
import * as Receipt from "./Receipt.ts"
import type { SmppConfig } from "./SmppConfig.ts"
import * as ShortMessage from "./ShortMessage.ts"

/** What a receipt or an inbound SMS did, for the log (and for tests). */
export type Notice =
  | { readonly _tag: "Receipt"; readonly applied: Deliveries.Applied }
  | { readonly _tag: "ReceiptParked"; readonly receipt: Receipt.Receipt }
  | { readonly _tag: "UnreadableReceipt"; readonly text: string }
  | { readonly _tag: "Inbound"; readonly from: string; readonly text: string; readonly complete: boolean; readonly missing: ReadonlyArray<number> }
  | { readonly _tag: "InboundRefused"; readonly from: string; readonly reason: string; readonly status: number }
  | { readonly _tag: "Link"; readonly event: Link.Event }

export class SmppCarrier extends Context.Service<SmppCarrier, {
  readonly deliveries: Deliveries.Deliveries
  /** Waits until every part handed over so far has its submit_sm_resp. */
  readonly idle: Effect.Effect<void>
  readonly isBound: Effect.Effect<boolean>
}>()("@smsbook/carrier/SmppCarrier") {}

/** Services the inbound path needs: `receiveMessage` records the SMS and applies its keyword. */
type InboundServices = Account.Account | MessageStore.MessageStore | ContactStore.ContactStore

const numeric = /^\d+$/

/** SMPP addresses: digits are international numbers (TON 1, NPI 1), anything else alphanumeric (TON 5). */
const address = (value: string) => numeric.test(value) ? { ton: value.length <= 8 ? 3 : 1, npi: value.length <= 8 ? 0 : 1 } : { ton: 5, npi: 0 }

/** The text octets of an inbound PDU: `message_payload` when the SMSC used it, else `short_message`. */
const octetsOf = (pdu: Pdu): Uint8Array => {
  const payload = Raw.bytes(pdu["message_payload"])
  return payload.length > 0 ? payload : Raw.bytes(pdu["short_message"])
}

/**
 * The SMPP carrier as core's `Carrier` plus `SmppCarrier` (its deliveries), bound for the layer's
 * life. `onNotice` hears every receipt and inbound SMS (logged by default).
 */
export const layer = (config: SmppConfig, onNotice?: (notice: Notice) => void) =>
  Layer.effectContext(Effect.gen(function*() {
    const context = yield* Effect.context<InboundServices>()
    const run = Effect.runPromiseWith(context)
    const deliveries = Deliveries.make()
    const inflight = new Set<Promise<unknown>>()
    const notify = onNotice ?? ((notice: Notice) => {
      const log = notice._tag === "Receipt" && notice.applied._tag !== "Updated" || notice._tag === "UnreadableReceipt" || notice._tag === "InboundRefused"
        ? Effect.logWarning
        : Effect.logDebug
      void run(log("smpp", notice))
    })
    const reassembler = Reassembly.make<(status: number) => void>(config.reassemblyTimeoutMs)

    const receive = (from: string, text: string) =>
      run(Messaging.receiveMessage(from, text).pipe(
        Effect.as(0),
        Effect.catchTag("InvalidMsisdn", (error) => {
          notify({ _tag: "InboundRefused", from, reason: error.message, status: Link.statusPermanentError })
          return Effect.succeed(Link.statusPermanentError)
        })
      ))

    const settleAssembled = (assembled: Reassembly.Assembled<(status: number) => void>) => {
      notify({ _tag: "Inbound", from: assembled.from, text: assembled.text, complete: assembled.complete, missing: assembled.missing })
      receive(assembled.from, assembled.text).then(
        (status) => assembled.tokens.forEach((settle) => settle(status)),
        () => assembled.tokens.forEach((settle) => settle(Link.statusTemporaryError))
      )
    }

    const onReceipt = (pdu: Pdu, text: string): number => {
      const receipt = Receipt.parse({ receipted_message_id: pdu["receipted_message_id"], message_state: pdu["message_state"], text })
      if (receipt === undefined) {
        notify({ _tag: "UnreadableReceipt", text })
        return 0
      }
      const applied = deliveries.receipt(receipt)
      if (applied._tag === "Unknown" && inflight.size > 0) {
        // It may have overtaken its submit_sm_resp (an SMSC may even hold the resp until this is
        // answered): kept, and applied when the resp comes, or reported as unknown after the timeout.
        deliveries.park(receipt, Date.now())
        notify({ _tag: "ReceiptParked", receipt })
        return 0
      }
      notify({ _tag: "Receipt", applied })
      return 0
    }

    const onInbound = (pdu: Pdu): Promise<number> => {
      const esmClass = Number(pdu["esm_class"] ?? 0)
      const octets = octetsOf(pdu)
      const data = ShortMessage.userData(octets, esmClass)
      const dataCoding = Number(pdu["data_coding"] ?? 0)
      const text = ShortMessage.decodeText(data.body, dataCoding, { packing: config.packing, udhLength: data.udhLength })
      const from = String(pdu["source_addr"] ?? "")
      if (Receipt.isReceipt(esmClass)) return Promise.resolve(onReceipt(pdu, text instanceof Error ? Buffer.from(octets).toString("latin1") : text))
      if (text instanceof Error) {
        notify({ _tag: "InboundRefused", from, reason: text.message, status: Link.statusPermanentError })
        return Promise.resolve(Link.statusPermanentError)
      }
      const sar = typeof pdu["sar_msg_ref_num"] === "number" && typeof pdu["sar_total_segments"] === "number" && typeof pdu["sar_segment_seqnum"] === "number"
        ? { reference: pdu["sar_msg_ref_num"], total: pdu["sar_total_segments"], sequence: pdu["sar_segment_seqnum"] }
        : undefined
      const concatenation = data.concatenation ?? sar
      if (concatenation === undefined || concatenation.total <= 1) {
        notify({ _tag: "Inbound", from, text, complete: true, missing: [] })
        return receive(from, text)
      }
      // The part is acknowledged only once its whole message is recorded (or timed out and recorded).
      return new Promise<number>((settle) => {
        const assembled = reassembler.add({ from, ...concatenation, text, token: settle }, Date.now())
        if (assembled !== undefined) settleAssembled(assembled)
      })
    }

    const expiry = setInterval(() => {
      for (const assembled of reassembler.expire(Date.now())) settleAssembled(assembled)
      for (const receipt of deliveries.expireParked(Date.now(), config.responseTimeoutMs)) {
        notify({ _tag: "Receipt", applied: { _tag: "Unknown", receipt } })
      }
    }, Math.min(1000, config.reassemblyTimeoutMs, config.responseTimeoutMs))

    const link = yield* Effect.acquireRelease(
      Effect.sync(() => Link.open(config, onInbound, (event) => notify({ _tag: "Link", event }))),
      (link) => Effect.promise(() => {
        clearInterval(expiry)
        return link.close()
      })
    )

    const submitPart = (part: Carrier.Part, encoded: ShortMessage.Encoded) => {
      const source = address(part.short_code)
      const destination = address(part.msisdn)
      const submission = link.submit({
        source_addr_ton: source.ton,
        source_addr_npi: source.npi,
        source_addr: part.short_code,
        dest_addr_ton: destination.ton,
        dest_addr_npi: destination.npi,
        destination_addr: part.msisdn,
        registered_delivery: config.receipts ? 1 : 0,
        data_coding: encoded.data_coding,
        esm_class: encoded.esm_class,
        short_message: Buffer.from(encoded.short_message)
      }).then((outcome) => {
        const key = { message_id: part.message_id, msisdn: part.msisdn, part: part.part }
        if (outcome._tag === "Accepted") {
          for (const applied of deliveries.submitted(key, outcome.messageId)) notify({ _tag: "Receipt", applied })
        }
        else if (outcome._tag === "Refused") deliveries.refused(key)
        return outcome
      })
      inflight.add(submission)
      void submission.finally(() => inflight.delete(submission))
      return submission
    }

    /** Parts of one message to one number, in order, as core cut them. */
    const groups = (parts: ReadonlyArray<Carrier.Part>) => {
      const out = new Map<string, Array<Carrier.Part>>()
      for (const part of parts) {
        const key = `${part.message_id}\u0000${part.msisdn}`
        const group = out.get(key) ?? []
        group.push(part)
        out.set(key, group)
      }
      return [...out.values()].map((group) => group.sort((a, b) => a.part - b.part))
    }

    const handOver = (parts: ReadonlyArray<Carrier.Part>) =>
      Effect.flatMap(
        Effect.promise(() =>
          Promise.all(groups(parts).flatMap((group) => {
            const first = group[0]
            if (first === undefined) return []
            const encoded = ShortMessage.encodeParts(group.map((part) => part.text), {
              packing: config.packing,
              reference: ShortMessage.referenceOf(first.message_id, first.msisdn)
            })
            return group.map((part, index) => {
              const octets = encoded[index]
              return octets === undefined ? Promise.resolve<Link.Outcome>({ _tag: "Refused", status: -1 }) : submitPart(part, octets)
            })
          }))
        ),
        (outcomes) => {
          const failed = outcomes.find((outcome) => outcome._tag === "LinkFailed")
          return failed !== undefined && failed._tag === "LinkFailed"
            ? Effect.fail(new CarrierFailure({ reason: failed.reason }))
            : Effect.succeed(outcomes.filter((outcome) => outcome._tag === "Refused").length)
        }
      )

    return Context.make(Carrier.Carrier, Carrier.Carrier.of({ handOver })).pipe(
      Context.add(SmppCarrier, SmppCarrier.of({
        deliveries,
        idle: Effect.promise(() => link.idle()),
        isBound: Effect.sync(() => link.isBound())
      }))
    )
  }))
