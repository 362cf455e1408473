/**
 * core's `Carrier` over SMPP 3.4: hands every part to the SMSC through one transceiver bind, turns
 * delivery receipts into part states and `error_count`, and records inbound SMS through `receiveMessage`.
 */
import { Account, Carrier, CarrierFailure, ContactStore, MessageStore, Messaging } from "@smsbook/core"
import { Context, Effect, Layer } from "effect"
import * as Deliveries from "./Deliveries.ts"
import * as Inbound from "./internal/inbound.ts"
import * as Link from "./internal/link.ts"
import * as Submit from "./internal/submit.ts"
import * as Receipt from "./Receipt.ts"
import type { SmppConfig } from "./SmppConfig.ts"
import * as ShortMessage from "./ShortMessage.ts"

/** What a receipt or an inbound SMS did, for the log (and for tests). */
export type Notice =
  | { readonly _tag: "Receipt"; readonly applied: Deliveries.Applied }
  | { readonly _tag: "ReceiptParked"; readonly receipt: Receipt.Receipt }
  | Inbound.InboundNotice
  | { readonly _tag: "Link"; readonly event: Link.Event }

export class SmppCarrier extends Context.Service<SmppCarrier, {
  readonly deliveries: Deliveries.Deliveries
  /** Waits until every part handed over so far has its submit_sm_resp. */
  readonly idle: Effect.Effect<void>
  readonly isBound: Effect.Effect<boolean>
}>()("@smsbook/carrier/SmppCarrier") {}

/** Services the inbound path needs: `receiveMessage` records the SMS and applies its keyword. */
type InboundServices = Account.Account | MessageStore.MessageStore | ContactStore.ContactStore

/**
 * The SMPP carrier as core's `Carrier` plus `SmppCarrier` (its deliveries), bound for the layer's
 * life. `onNotice` hears every receipt and inbound SMS (logged by default); `receiving` says how senders are read.
 */
export const layer = (config: SmppConfig, onNotice?: (notice: Notice) => void, receiving: Messaging.ReceiveOptions = {}) =>
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
    const receive = (from: string, text: string) =>
      run(Messaging.receiveMessage(from, text, receiving).pipe(
        Effect.as(0),
        Effect.catchTag("InvalidMsisdn", (error) => {
          notify({ _tag: "InboundRefused", from, reason: error.message, status: Link.statusPermanentError })
          return Effect.succeed(Link.statusPermanentError)
        })
      ))

    const onReceipt = (receipt: Receipt.Receipt): Promise<number> => {
      const applied = deliveries.receipt(receipt)
      if (applied._tag === "Unknown" && inflight.size > 0) {
        // It may have overtaken its submit_sm_resp (an SMSC may even hold the resp until this is
        // answered): kept, and applied when the resp comes, or reported as unknown after the timeout.
        deliveries.park(receipt, Date.now())
        notify({ _tag: "ReceiptParked", receipt })
        return Promise.resolve(0)
      }
      notify({ _tag: "Receipt", applied })
      return Promise.resolve(0)
    }

    const inbound = Inbound.make(config, { receive, receipt: onReceipt, notify })

    const expiry = setInterval(() => {
      inbound.sweep(Date.now())
      for (const receipt of deliveries.expireParked(Date.now(), config.responseTimeoutMs)) {
        notify({ _tag: "Receipt", applied: { _tag: "Unknown", receipt } })
      }
    }, Math.min(1000, config.reassemblyTimeoutMs, config.responseTimeoutMs))

    const link = yield* Effect.acquireRelease(
      Effect.sync(() => Link.open(config, inbound.handle, (event) => notify({ _tag: "Link", event }))),
      (link) => Effect.promise(() => {
        clearInterval(expiry)
        return link.close()
      })
    )

    const submitPart = (part: Carrier.Part, encoded: ShortMessage.Encoded) => {
      const submission = link.submit(Submit.params(part, encoded, config.receipts)).then((outcome) => {
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
