/**
 * `smsbook dispatch`: drains the outbox to the SMSC over one SMPP bind, or through Kannel's smsbox.
 * It processes messages left PENDING or READY, claims parts under a lease, stores each part's state
 * before and after its PDU, turns receipts into part states and `error_count`, and records inbound SMS.
 * Just over 400 lines: `run` is one loop whose steps (claims, answers, receipts, leases, the stop's drain and the
 * `once` verdict) share its counters and the link's state; split, that state would travel between modules.
 */
import { Account, type Carrier, CarrierFailure, ContactStore, Message, MessageStore, Messaging, PartQueue, Sms, type StoreFailure } from "@smsbook/core"
import { Effect, Fiber, Option, Semaphore, Stream } from "effect"
import * as Inbound from "./internal/inbound.ts"
import * as Link from "./internal/link.ts"
import * as Submit from "./internal/submit.ts"
import * as KannelConfig from "./KannelConfig.ts"
import * as KannelLink from "./KannelLink.ts"
import * as KannelRequest from "./KannelRequest.ts"
import * as Receipt from "./Receipt.ts"
import type { SmppConfig } from "./SmppConfig.ts"
import * as ShortMessage from "./ShortMessage.ts"

export interface Options {
  /** Who this dispatcher is (owner name, host, pid): `PartStore.thisProcess()`. */
  readonly dispatcher: PartQueue.Dispatcher
  /** Stop once nothing is left to send (and the receipts of this run are in, or `receiptWaitMs` passed). */
  readonly once: boolean
  /** A claimed part's lease: another dispatcher may take over after this long without renewal. */
  readonly leaseMs: number
  /** How long `once` waits for the receipts of what it sent. */
  readonly receiptWaitMs: number
  /** How often messages left PENDING/READY (by the server, by an interrupted run) are looked for. */
  readonly messagesEveryMs: number
  /** Messages created this long ago or earlier are not looked for. */
  readonly messagesWithinMs: number
  /**
   * How long a part in doubt (written when its dispatcher died, unanswered) waits for a receipt
   * naming it, with the link bound, before it is sent again. Without receipts it is never sent again.
   */
  readonly doubtMs: number
  /** The country of inbound senders the carrier hands over written nationally (`Messaging.ReceiveOptions`). */
  readonly defaultCountry?: string | undefined
}

export const defaults: Omit<Options, "dispatcher"> = {
  once: false,
  leaseMs: 30_000,
  receiptWaitMs: 10_000,
  messagesEveryMs: 2_000,
  messagesWithinMs: 7 * 24 * 3600_000,
  doubtMs: 10_000
}


/** What a run did. */
export interface Summary {
  readonly messages: number
  readonly submitted: number
  readonly refused: number
  readonly receipts: number
  readonly failedReceipts: number
  readonly unknownReceipts: number
  readonly inbound: number
  /** Parts a stopped dispatcher claimed but never wrote: queued again. */
  readonly requeued: number
  /** Parts a stopped dispatcher wrote without an answer: in doubt until a receipt or the end of the doubt. */
  readonly inDoubt: number
  /** Parts in doubt that no receipt named: sent again. */
  readonly resent: number
  /** Parts not sent because their number opted out before the message to it started. */
  readonly cancelled: number
}

/** What the dispatcher tells its log. */
export type Notice =
  | Inbound.InboundNotice
  | { readonly _tag: "Link"; readonly event: Link.Event }
  | { readonly _tag: "Receipt"; readonly outcome: PartQueue.ReceiptOutcome; readonly receipt: Receipt.Receipt }
  | { readonly _tag: "Processed"; readonly message_id: string; readonly status: string }
  | { readonly _tag: "Recovered"; readonly requeued: number; readonly inDoubt: number }
  | { readonly _tag: "Resent"; readonly parts: number }
  | { readonly _tag: "ScanFailed"; readonly reason: string }

/**
 * The notices worth a warning: refused or unreadable input, receipts nobody matches, parts a stopped dispatcher left,
 * and a link that dropped or could not bind (it is tried again: without a word, an unreachable SMSC looked like a hang).
 */
export const isWarning = (notice: Notice): boolean =>
  notice._tag === "InboundRefused" || notice._tag === "UnreadableReceipt" || notice._tag === "Recovered" || notice._tag === "Resent" ||
  notice._tag === "ScanFailed" ||
  (notice._tag === "Receipt" && notice.outcome._tag === "Unknown") ||
  // A refused bind is told by the Disconnected that follows it, in words: one warning an attempt.
  (notice._tag === "Link" && notice.event._tag === "Disconnected")

type Services = PartQueue.PartQueue | MessageStore.MessageStore | ContactStore.ContactStore | Account.Account | Carrier.Carrier

interface PendingReceipt {
  readonly receipt: Receipt.Receipt
  readonly handset: string
  readonly since: number
  readonly answer: (status: number) => void
}

/**
 * Hands on the MT messages left unfinished (by the server, by an interrupted run), those created within `withinMs` when
 * given: individual ones READY are delivered, group ones not SENT processed; answers how many. `smsbook dispatch`
 * without a carrier runs it once, the outbox being the carrier.
 */
export const processMessages = Effect.fnUntraced(function*(
  options: { readonly withinMs?: number; readonly notify?: (notice: Notice) => void } = {}
) {
  const store = yield* MessageStore.MessageStore
  const notify = options.notify ?? (() => undefined)
  let processed = 0
  const filter = options.withinMs === undefined ? { direction: "MT" as const } : { direction: "MT" as const, from: Date.now() - options.withinMs }
  yield* Stream.runForEach(store.stream(filter), (message) =>
    Effect.gen(function*() {
      if (message.type === Message.INDIVIDUAL && message.status === "READY") {
        // Refused as SENT: another process delivered it since the scan read it.
        const sent = yield* Messaging.deliverMessage(message.message_id).pipe(
          Effect.map(Option.some),
          Effect.catchTag("IllegalTransition", () => Effect.succeedNone)
        )
        if (Option.isNone(sent)) return
        processed++
        notify({ _tag: "Processed", message_id: message.message_id, status: sent.value.status })
      } else if (message.type === Message.GROUP && message.status !== "SENT") {
        const result = yield* Messaging.processGroupMessage(message.message_id)
        processed++
        notify({ _tag: "Processed", message_id: message.message_id, status: result.message.status })
      }
    }))
  return processed
})

/**
 * Runs the dispatcher until interrupted (or, with `once`, until drained). Each part: `claimed` (leased),
 * `submitting` (stored just before its PDU is written), then `submitted` with the SMSC id or `refused` (stored
 * after its response); parts a link drop left unanswered are `claimed` again and sent again by the link. Of a dispatcher that
 * died, parts claimed but never written are sent again, and parts written without an answer are in
 * doubt: a receipt from their number settles them (the SMSC had them), else after `doubtMs` bound
 * they are sent again. A part whose number opted out before its message to it started is cancelled. With `once`, a
 * carrier that has not answered since the run began (an SMPP link never bound, smsbox never answered the link's probe)
 * fails the run (`CarrierFailure`, with the link's reason, which names the address and what to check) when an attempt
 * has failed and `connectTimeoutMs` has passed: a carrier that is not there ends a run, not hangs it, and its parts
 * wait for the next run, never sent. Over Kannel, a run whose messages smsbox took and never answered fails too when
 * it would end (those parts count as sent: smsbox may have them; one at a time goes out until smsbox answers one).
 * Without `once`, the link keeps trying with backoff, each failure a warning.
 */
export const run = (config: SmppConfig | KannelConfig.KannelConfig, options: Options, onNotice?: (notice: Notice) => void) =>
  Effect.scoped(Effect.gen(function*() {
    // Over Kannel, parts go as smsbox sendsms requests; its reports and inbound SMS reach smsbook's
    // HTTP server (`KannelCallbacks`), not this link.
    const smpp = KannelConfig.is(config) ? undefined : config
    const packing = smpp?.packing ?? "unpacked"
    const queue = yield* PartQueue.PartQueue
    const messages = yield* MessageStore.MessageStore
    const account = yield* Account.Account
    const context = yield* Effect.context<Services>()
    const runPromise = Effect.runPromiseWith(context)
    const notify = onNotice ?? ((notice: Notice) => void runPromise((isWarning(notice) ? Effect.logWarning : Effect.logDebug)("dispatch", notice)))
    const owner = options.dispatcher.owner
    const counts = { messages: 0, submitted: 0, refused: 0, receipts: 0, failedReceipts: 0, unknownReceipts: 0, inbound: 0, requeued: 0, inDoubt: 0, resent: 0, cancelled: 0 }

    // Work handed between the link's callbacks and the loop, which alone talks to the store.
    const answers: Array<PartQueue.Answer> = []
    const released: Array<number> = []
    const receipts: Array<PendingReceipt> = []
    let inflight = 0
    let wake: (() => void) | undefined
    const signal = () => {
      const current = wake
      wake = undefined
      current?.()
    }
    const nap = (ms: number) =>
      Effect.promise(() => new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms)
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
      }))

    // Answers are stored before any later part is written (`beforeWrite` below, under the same lock):
    // a number's next part is written only once the answer to the one before it is stored, so a
    // crash leaves at most one of its parts in doubt, and a receipt from it names that one. What a
    // failed write did not store is kept for the next one.
    const storing = yield* Semaphore.make(1)
    const storeFrom = <A>(pending: Array<A>, store: (taken: ReadonlyArray<A>) => Effect.Effect<void, StoreFailure>) =>
      Effect.suspend(() => {
        if (pending.length === 0) return Effect.void
        const taken = pending.splice(0)
        return Effect.onError(store(taken), () => Effect.sync(() => void pending.unshift(...taken)))
      })
    const storeAnswers = Effect.andThen(storeFrom(answers, queue.answer), storeFrom(released, queue.release))
    const flush = storing.withPermits(1)(storeAnswers)

    const receive = (from: string, text: string) =>
      runPromise(Messaging.receiveMessage(from, text, { defaultCountry: options.defaultCountry }).pipe(
        Effect.as(0),
        Effect.tap(() => Effect.sync(() => void counts.inbound++)),
        Effect.catchTag("InvalidMsisdn", (error) => {
          const hint = error.problem === "unknown-country" && options.defaultCountry === undefined
            ? ": a sender written nationally needs dispatch --default-country"
            : ""
          notify({ _tag: "InboundRefused", from, reason: error.message + hint, status: Link.statusPermanentError })
          return Effect.succeed(Link.statusPermanentError)
        })
      ))

    const inbound = Inbound.make({ packing, reassemblyTimeoutMs: smpp?.reassemblyTimeoutMs ?? 60_000 }, {
      receive,
      receipt: (receipt, handset) =>
        new Promise<number>((answer) => {
          receipts.push({ receipt, handset, since: Date.now(), answer })
          signal()
        }),
      notify
    })

    // Parts of a stopped dispatcher: unwritten ones are queued again; written ones wait for a
    // receipt (receipts requested) or stay in doubt for good (never sent twice).
    const recover = Effect.gen(function*() {
      const recovered = yield* queue.recover(Date.now(), config.receipts ? options.doubtMs : undefined)
      if (recovered.requeued > 0 || recovered.inDoubt > 0) {
        counts.requeued += recovered.requeued
        counts.inDoubt += recovered.inDoubt
        notify({ _tag: "Recovered", ...recovered })
      }
    })
    yield* queue.enter(options.dispatcher, Date.now(), options.leaseMs)
    yield* Effect.addFinalizer(() => Effect.ignore(queue.leave(options.dispatcher)))
    yield* recover

    // Stored just before the PDUs are written: a crash after it leaves them in doubt, before it
    // queued again. What the SMSC answered with a throttle or lost with the link is claimed again,
    // so the parts in doubt after a crash are exactly those of the last writes, in order.
    const journal: Link.Journal = {
      beforeWrite: (seqs) => runPromise(storing.withPermits(1)(Effect.andThen(storeAnswers, queue.sending(seqs)))),
      notTaken: (seqs) => runPromise(queue.notTaken(seqs))
    }
    // Whether the link has bound (the SMSC answered a bind, smsbox a message) since the run began, whether answers
    // were lost, and why its latest attempt failed.
    let everBound = false
    let answersLost = false
    let linkTrouble: string | undefined
    const onLinkEvent = (event: Link.Event) => {
      if (event._tag === "Bound") everBound = true
      else if (event._tag === "Disconnected") {
        linkTrouble = event.reason
        if ((event.inDoubt ?? 0) > 0) answersLost = true
      }
      notify({ _tag: "Link", event })
    }
    const openedAt = Date.now()
    /** The failure of a `once` run whose carrier never answered. */
    const unreachable = (trouble: string) =>
      new CarrierFailure({
        reason: KannelConfig.is(config)
          ? `no answer from smsbox to the sendsms-user ${config.username} since the run began: ${trouble}`
          : `no bind to the SMSC as ${config.systemId} after ${config.connectTimeoutMs / 1000} s: ${trouble}`
      })
    const link = yield* Effect.acquireRelease(
      Effect.sync(() =>
        KannelConfig.is(config)
          ? KannelLink.open(config, onLinkEvent, journal)
          : Link.open(config, inbound.handle, onLinkEvent, journal)
      ),
      (opened) => Effect.promise(() => opened.close())
    )
    // A stop (SIGTERM, the end of `once`) lets what is on the wire be answered (5 s at most), then
    // stores the answers and gives back the parts that never left. Nothing on the wire (a carrier
    // not reached): it stops at once, where waiting for the queue to empty took the whole 5 s.
    yield* Effect.addFinalizer(() =>
      Effect.promise(async () => {
        const until = Date.now() + 5000
        while (link.onTheWire() > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10))
        await link.close()
        await new Promise((resolve) => setImmediate(resolve))
      }).pipe(Effect.andThen(Effect.ignore(flush)))
    )

    // Messages left PENDING/READY are processed beside the draining, so a long broadcast never stalls it.
    let messagesPending = true
    let lastScan = 0
    // A scan that fails (the book locked a moment, a message another process moved on) is told and tried at the next
    // one: failed, the scanner's fiber ended, and with it every later broadcast's processing (a `--once` run hung).
    const scanMessages = Effect.gen(function*() {
      const processed = yield* processMessages({ withinMs: options.messagesWithinMs, notify })
      counts.messages += processed
      messagesPending = processed > 0
      lastScan = Date.now()
      signal()
    }).pipe(Effect.catch((error) => Effect.sync(() => notify({ _tag: "ScanFailed", reason: error.message }))))
    const scanner = yield* Effect.forkChild(Effect.forever(Effect.andThen(scanMessages, Effect.sleep(options.messagesEveryMs))))
    yield* Effect.addFinalizer(() => Fiber.interrupt(scanner))

    const encodings = new Map<string, Sms.Encoding>()
    const encodingOf = Effect.fnUntraced(function*(part: Carrier.Part, siblings: ReadonlyArray<Carrier.Part>) {
      const known = encodings.get(part.message_id)
      if (known !== undefined) return known
      const stored = yield* messages.get(part.message_id)
      const encoding = Option.isSome(stored) && stored.value.direction === "MT"
        ? Sms.analyzePrefixed(account.short_name, stored.value.message).encoding
        : Sms.analyze(siblings.map((sibling) => sibling.text).join("")).encoding
      encodings.set(part.message_id, encoding)
      return encoding
    })

    const submit = (claimed: PartQueue.Claimed, encoded: ShortMessage.Encoded) => {
      inflight++
      const params = KannelConfig.is(config) ? KannelRequest.make(claimed, encoded, config) : Submit.params(claimed, encoded, config.receipts)
      void link.submit(params, claimed.seq).then((outcome) => {
        inflight--
        if (outcome._tag === "Accepted") {
          answers.push({ seq: claimed.seq, smscId: outcome.messageId })
          counts.submitted++
        } else if (outcome._tag === "Refused") {
          answers.push({ seq: claimed.seq, refused: outcome.status })
          counts.refused++
        } else if (outcome._tag === "Withheld") counts.cancelled++
        else if (!outcome.sent) released.push(claimed.seq)
        // A part on the wire when the link was closed stays `submitting`: the next run finds it in doubt.
        signal()
      })
    }

    const claimAndSubmit = Effect.gen(function*() {
      const room = config.window * 2 - inflight
      if (room <= 0 || !link.isBound()) return 0
      const { parts: claimed, cancelled } = yield* queue.claim(owner, Math.min(room, 500), Date.now(), options.leaseMs)
      counts.cancelled += cancelled
      for (const part of claimed) {
        const siblings = claimed.filter((other) => other.message_id === part.message_id && other.msisdn === part.msisdn)
        const encoding = yield* encodingOf(part, siblings)
        submit(part, ShortMessage.encodePart(part.text, {
          encoding,
          packing,
          reference: ShortMessage.referenceOf(part.message_id, part.msisdn),
          sequence: part.part,
          total: part.parts
        }))
      }
      return claimed.length + cancelled
    })


    const applyReceipts = Effect.gen(function*() {
      const now = Date.now()
      const batch = receipts.splice(0)
      // One transaction for all that arrived since the last turn: a commit per receipt bounded the rate.
      const outcomes = yield* queue.receipts(batch.map((pending) => ({
        smscIds: Receipt.idCandidates(pending.receipt.messageId),
        state: pending.receipt.state,
        msisdn: pending.handset
      })))
      for (const [index, pending] of batch.entries()) {
        const outcome = outcomes[index] ?? { _tag: "Unknown" }
        if (outcome._tag === "Unknown" && now - pending.since < config.responseTimeoutMs + options.leaseMs) {
          // It may have overtaken its submit_sm_resp, or name a part a dead dispatcher (on PostgreSQL)
          // still holds until its lease ends: kept unanswered (so a crash loses nothing: the SMSC
          // sends it again) and tried again. Only while submit_sm of this bind wait for their resp
          // is it answered after a second all the same: an SMSC may hold the resp until then.
          if (now - pending.since >= 1000 && link.outstanding() > 0 && answers.length === 0) {
            pending.answer(0)
            receipts.push({ ...pending, answer: () => undefined })
          } else receipts.push(pending)
          continue
        }
        counts.receipts++
        if (outcome._tag === "Unknown") counts.unknownReceipts++
        if (outcome._tag === "Updated" && PartQueue.failedStates.includes(outcome.state)) counts.failedReceipts++
        notify({ _tag: "Receipt", outcome, receipt: pending.receipt })
        pending.answer(0)
      }
    })

    let lastRenewal = Date.now()
    let lastResend = 0
    let boundAt: number | undefined
    let drainedAt: number | undefined
    while (true) {
      const claimed = yield* claimAndSubmit
      yield* flush
      yield* applyReceipts
      const now = Date.now()
      inbound.sweep(now)
      if (now - lastRenewal > options.leaseMs / 3) {
        lastRenewal = now
        yield* queue.enter(options.dispatcher, now, options.leaseMs)
        yield* recover
      }
      boundAt = link.isBound() ? boundAt ?? now : undefined
      // Parts in doubt that no receipt named (the SMSC never took them) go out again, once their doubt
      // has ended and the link has been bound as long, so the SMSC could deliver the receipts it held.
      if (config.receipts && boundAt !== undefined && now - boundAt >= options.doubtMs && now - lastResend >= 250) {
        lastResend = now
        const resent = yield* queue.resend(now)
        if (resent > 0) {
          counts.resent += resent
          notify({ _tag: "Resent", parts: resent })
        }
      }
      // Why a `once` run's carrier has not answered yet, if it has not.
      // A link bound now (smsbox answers its probe, after a failed one; its first message may be on its way) is not
      // failed: one that lost smsbox again is unbound, and is.
      const unreached = options.once && !everBound && !link.isBound() ? linkTrouble : undefined
      if (unreached !== undefined && now - openedAt >= config.connectTimeoutMs) return yield* unreachable(unreached)
      if (options.once) {
        const idle = claimed === 0 && inflight === 0 && answers.length === 0 && released.length === 0 && !messagesPending && lastScan > 0
        if (idle && (yield* queue.pending) === 0) {
          drainedAt ??= now
          const waited = now - drainedAt
          // The receipts of this run, and of parts an earlier (killed) run had accepted.
          const receiptsIn = receipts.length === 0 && (!config.receipts || (yield* queue.awaitingReceipts) === 0)
          if (receiptsIn || waited >= options.receiptWaitMs) {
            // Messages went out and smsbox answered none (it answers its probes, loses every message): no "done".
            if (answersLost && !everBound && linkTrouble !== undefined) return yield* unreachable(linkTrouble)
            break
          }
        } else drainedAt = undefined
      }
      if (claimed === 0 || inflight >= config.window * 2) yield* nap(claimed === 0 ? 100 : 20)
    }
    yield* flush
    return { ...counts } satisfies Summary
  }))
