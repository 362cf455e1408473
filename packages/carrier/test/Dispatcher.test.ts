/**
 * The dispatcher over a real SQLite book: to the test SMSC over SMPP and to stand-in smsbox servers over HTTP, with
 * throttling, dropped links, receipts, opt-outs, and carriers that are not there or never answer. Just over 400
 * lines: every case shares the book, account and run helpers below, and each is one scenario end to end.
 */
import { mkdtempSync, rmSync } from "node:fs"
import * as Http from "node:http"
import type { Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Account, CarrierFailure, ContactBook, Messaging, MessageStore, PartQueue, Sms, StoreFailure } from "@smsbook/core"
import { PartStore, Store } from "@smsbook/store"
import { Effect, Fiber, Layer, ManagedRuntime, Option, Stream } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import * as Dispatcher from "../src/Dispatcher.ts"
import * as KannelConfig from "../src/KannelConfig.ts"
import * as TestSmsc from "./TestSmsc.ts"

const shortName = "Shop"
const text = "Привет! Большая распродажа в эти выходные, скидки до 50% на всё — ждём вас в наших магазинах"

let folder: string
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "smsbook-dispatch-"))
})
afterEach(() => rmSync(folder, { recursive: true, force: true }))

const runtimeFor = (path: string) => {
  const account = Account.layer({ ...Account.defaults, short_name: shortName, short_code: "SHOP" })
  return ManagedRuntime.make(Layer.mergeAll(Store.layer(`sqlite:${path}`), PartStore.layer(`sqlite:${path}`), account))
}

const book = (runtime: ReturnType<typeof runtimeFor>, count: number) =>
  runtime.runPromise(Effect.forEach(Array.from({ length: count }, (_, i) => `4474009${String(i).padStart(5, "0")}`), (msisdn) =>
    ContactBook.createContact(msisdn, { first_name: "A" }).pipe(Effect.andThen(ContactBook.editContact(msisdn, { tags: ["news"] })))))

type Runtime = ReturnType<typeof runtimeFor>

/** A test SMSC and a fresh SQLite book for `use`, both closed after. */
const withSmsc = async (options: TestSmsc.Script, use: (smsc: TestSmsc.TestSmsc, runtime: Runtime) => Promise<void>) => {
  const smsc = await TestSmsc.start(options)
  const runtime = runtimeFor(join(folder, "book.db"))
  try {
    await use(smsc, runtime)
  } finally {
    await runtime.dispose()
    await smsc.close()
  }
}

/** This process as a dispatcher that stops once the queue is drained, with `extra` over the defaults. */
const once = (extra: Partial<Dispatcher.Options> = {}): Dispatcher.Options => ({
  ...Dispatcher.defaults,
  dispatcher: PartStore.thisProcess(),
  once: true,
  ...extra
})

const delivered = { receipt: () => ({ stat: "DELIVRD" as const, delayMs: 1 }) }

describe("Dispatcher (SQLite)", () => {
  it("drains a 2-part UCS-2 broadcast through throttling, a dropped link and failed receipts: each part once, sent_count = parts, error_count = failed receipts", async () => {
    await withSmsc({
      throttleEvery: 13,
      dropAtSubmit: [57],
      respondDelayMs: 1,
      receipt: (_part, index) => ({ stat: index % 33 === 5 ? "UNDELIV" : "DELIVRD", delayMs: 5 + (index % 7) * 3 })
    }, async (smsc, runtime) => {
      await book(runtime, 60)
      const broadcast = await runtime.runPromise(Messaging.broadcast({ tags: ["news"], message: text }, { allowEmpty: false }))
      const segments = Sms.analyzePrefixed(shortName, text).segments
      expect(segments).toBe(2)
      expect(broadcast.message.sent_count).toBe(120)
      const summary = await runtime.runPromise(Dispatcher.run(TestSmsc.clientConfig(smsc.port, { window: 10 }), once()))
      expect(summary.submitted).toBe(120)
      expect(smsc.accepted.length).toBe(120)
      expect(smsc.unanswered.length).toBeGreaterThan(0)
      const wholes = smsc.reassembled()
      expect(wholes.length).toBe(60)
      expect(wholes.every((whole) => whole.text === Sms.prefix(shortName, text) && whole.parts === 2)).toBe(true)
      const failed = [...smsc.receipts.values()].filter((stat) => stat !== "DELIVRD").length
      expect(failed).toBeGreaterThan(0)
      const stored = await runtime.runPromise(Messaging.listMessages({ direction: "MT" }))
      expect(stored.map((message) => [message.sent_count, message.error_count])).toEqual([[120, failed]])
      const states = await runtime.runPromise(Effect.flatMap(Effect.service(PartQueue.PartQueue), (queue) => queue.states(broadcast.message.message_id)))
      expect(states.filter((part) => part.state === "undeliverable").length).toBe(failed)
      expect(states.filter((part) => part.state === "delivered").length).toBe(120 - failed)
    })
  })

  it("writes a number's next part only once the answer to the one before is stored: a crash would leave at most one of its parts in doubt", async () => {
    await withSmsc({ throttleEvery: 5, dropAtSubmit: [40, 90], respondDelayMs: 3, ...delivered }, async (smsc, runtime) => {
      await book(runtime, 40)
      const broadcast = await runtime.runPromise(Messaging.broadcast({ tags: ["news"], message: text }, { allowEmpty: false }))
      const messageId = broadcast.message.message_id ?? ""
      // After each write to the journal, the numbers with two parts stored as on the wire unanswered.
      const twice: Array<string> = []
      let answerCalls = 0
      const watched = Layer.effect(PartQueue.PartQueue, Effect.gen(function*() {
        const queue = yield* PartQueue.PartQueue
        return PartQueue.PartQueue.of({
          ...queue,
          sending: (seqs) => Effect.tap(queue.sending(seqs), () => Effect.map(queue.states(messageId), (states) => {
            const writing = states.filter((part) => part.state === "submitting").map((part) => part.msisdn)
            twice.push(...writing.filter((msisdn, index) => writing.indexOf(msisdn) !== index))
          })),
          // Slow answers (a loaded store) give the next part of a number time to be written first; the
          // second write of answers fails once (a lock timeout), and what it held must still be stored.
          answer: (answers) =>
            ++answerCalls === 2
              ? Effect.fail(new StoreFailure({ operation: "parts.answer", reason: "database is locked" }))
              : Effect.andThen(Effect.sleep("5 millis"), queue.answer(answers))
        })
      })).pipe(Layer.provide(Layer.succeedContext(await runtime.context())))
      const summary = await runtime.runPromise(Effect.provide(Dispatcher.run(TestSmsc.clientConfig(smsc.port, { window: 10, tps: 400 }), once()), watched))
      expect(answerCalls).toBeGreaterThan(2)
      expect(summary.submitted).toBe(80)
      expect(smsc.unanswered.length).toBeGreaterThan(0)
      expect(twice).toEqual([])
      const keys = smsc.accepted.map((part) => `${part.destination}/${part.concatenation?.sequence}`)
      expect(new Set(keys).size).toBe(80)
      const states = await runtime.runPromise(Effect.flatMap(Effect.service(PartQueue.PartQueue), (queue) => queue.states(messageId)))
      expect(states.map((part) => part.state)).toEqual(Array.from({ length: 80 }, () => "delivered"))
    })
  })

  it("a number that opted out gets no message not yet started: its parts are cancelled and leave sent_count; a started one is finished", async () => {
    await withSmsc(delivered, async (smsc, runtime) => {
      await book(runtime, 3)
      const [started, stopped, other] = ["447400900000", "447400900001", "447400900002"]
      const broadcast = await runtime.runPromise(Messaging.broadcast({ tags: ["news"], message: text }, { allowEmpty: false }))
      expect(broadcast.message.sent_count).toBe(6)
      const queue = await runtime.runPromise(Effect.service(PartQueue.PartQueue))
      // Part 1 to the first number reached the SMSC (as a run before this one did), then two numbers say STOP.
      const first = await runtime.runPromise(queue.claim("earlier", 1, Date.now(), 60_000))
      expect(first.parts.map((part) => [part.msisdn, part.part])).toEqual([[started, 1]])
      const seqs = first.parts.map((part) => part.seq)
      expect(await runtime.runPromise(queue.sending(seqs))).toEqual(seqs)
      await runtime.runPromise(queue.answer(seqs.map((seq) => ({ seq, smscId: "earlier-1" }))))
      for (const msisdn of [started, stopped]) await runtime.runPromise(Messaging.receiveMessage(msisdn ?? "", "STOP"))
      const summary = await runtime.runPromise(Dispatcher.run(TestSmsc.clientConfig(smsc.port), once({ receiptWaitMs: 1000 })))
      expect(summary.cancelled).toBe(2)
      expect(smsc.accepted.map((part) => `${part.destination}/${part.concatenation?.sequence}`).sort()).toEqual([`${started}/2`, `${other}/1`, `${other}/2`])
      const states = await runtime.runPromise(queue.states(broadcast.message.message_id ?? ""))
      expect(states.filter((part) => part.msisdn === stopped).map((part) => part.state)).toEqual(["cancelled", "cancelled"])
      const [stored] = await runtime.runPromise(Messaging.listMessages({ direction: "MT" }))
      expect([stored?.sent_count, stored?.error_count]).toEqual([4, 0])
    })
  })

  it("a part still unanswered when the dispatcher stops stays written (in doubt at the next start), never queued to go out again", async () => {
    // The SMSC answers after the stop's 5 s wait: it may have the part, so sending it again could deliver it twice.
    await withSmsc({ respondDelayMs: 7000 }, async (smsc, runtime) => {
      await book(runtime, 1)
      await runtime.runPromise(Messaging.sendToContact({ msisdn: "447400900000", message: "hello" }))
      const running = runtime.runFork(Dispatcher.run(TestSmsc.clientConfig(smsc.port), once({ once: false })))
      await TestSmsc.waitFor(() => smsc.submits() === 1, "the part's submit_sm")
      // The stop, awaited: it waits 5 s for the answer, which comes 7 s after the submit.
      await runtime.runPromise(Fiber.interrupt(running))
      expect(smsc.submits()).toBe(1)
      const [message] = await runtime.runPromise(Messaging.listMessages({ direction: "MT" }))
      const states = await runtime.runPromise(Effect.flatMap(Effect.service(PartQueue.PartQueue), (queue) => queue.states(message?.message_id ?? "")))
      expect(states.map((part) => part.state)).toEqual(["submitting"])
    })
  }, 20_000)

  it("sends READY individual messages, records inbound STOP, and refuses a second dispatcher on the same file", async () => {
    await withSmsc(delivered, async (smsc, runtime) => {
      await book(runtime, 2)
      await runtime.runPromise(Messaging.sendToContact({ msisdn: "447400900000", message: "hello" }))
      const queue = await runtime.runPromise(Effect.service(PartQueue.PartQueue))
      const other = { owner: "elsewhere", host: "another-host", pid: 1 }
      await runtime.runPromise(queue.enter(other, Date.now(), 60_000))
      const refused = await runtime.runPromise(Effect.flip(Dispatcher.run(TestSmsc.clientConfig(smsc.port), once())))
      expect(refused.message).toContain("only one may run on SQLite")
      await runtime.runPromise(queue.leave(other))
      const summary = await runtime.runPromise(Effect.gen(function*() {
        const fiber = yield* Effect.forkChild(Dispatcher.run(TestSmsc.clientConfig(smsc.port), once({ receiptWaitMs: 2000 })))
        yield* Effect.sleep("300 millis")
        yield* Effect.promise(() => smsc.sendInbound("447400900001", "SHOP", "STOP"))
        return yield* Fiber.join(fiber)
      }))
      expect(summary.submitted).toBe(1)
      expect(summary.inbound).toBe(1)
      expect(smsc.accepted.map((part) => [part.destination, part.text])).toEqual([["447400900000", "Shop: hello"]])
      const contact = await runtime.runPromise(ContactBook.getContact("447400900001"))
      expect(contact.status).toBe("CANCELLED")
      const sent = await runtime.runPromise(Messaging.listMessages({ direction: "MT" }))
      expect(sent.map((message) => [message.status, message.sent_count, message.error_count])).toEqual([["SENT", 1, 0]])
    })
  })

  it("processMessages (dispatch without a carrier) hands on what was left: a READY individual message and a PENDING group one, once", async () => {
    const runtime = runtimeFor(join(folder, "book.db"))
    try {
      await book(runtime, 2)
      await runtime.runPromise(Messaging.sendToContact({ msisdn: "447400900000", message: "hello" }))
      await runtime.runPromise(Messaging.sendToGroups({ tags: ["news"], message: "news" }))
      expect(await runtime.runPromise(Dispatcher.processMessages())).toBe(2)
      expect(await runtime.runPromise(Dispatcher.processMessages())).toBe(0)
      const sent = await runtime.runPromise(Messaging.listMessages({ direction: "MT" }))
      // Two messages made in one millisecond are listed in no set order.
      expect(sent.map((message) => [message.status, message.sent_count]).sort(([, a], [, b]) => Number(a) - Number(b)))
        .toEqual([["SENT", 1], ["SENT", 2]])
    } finally {
      await runtime.dispose()
    }
  })

  it("processMessages takes a READY message another process delivered after its scan read it as delivered elsewhere, not as a failure", async () => {
    const runtime = runtimeFor(join(folder, "book.db"))
    try {
      await book(runtime, 1)
      const { message_id: id = "" } = await runtime.runPromise(Messaging.sendToContact({ msisdn: "447400900000", message: "hello" }))
      // The scan's read: the message as it was before the other process delivered it.
      const scanned = await runtime.runPromise(Effect.flatMap(Effect.service(MessageStore.MessageStore), (store) => store.get(id)))
      await runtime.runPromise(Messaging.deliverMessage(id))
      const stale = Layer.effect(MessageStore.MessageStore, Effect.map(Effect.service(MessageStore.MessageStore), (store) => ({
        ...store,
        stream: () => Stream.fromIterable(Option.toArray(scanned))
      }))).pipe(Layer.provide(Layer.succeedContext(await runtime.context())))
      const told: Array<string> = []
      const processed = await runtime.runPromise(Effect.provide(Dispatcher.processMessages({ notify: (notice) => void told.push(notice._tag) }), stale))
      expect(Option.map(scanned, (found) => found.status)).toEqual(Option.some("READY"))
      expect(processed).toBe(0)
      expect(told).toEqual([])
      const sent = await runtime.runPromise(Messaging.listMessages({ direction: "MT" }))
      expect(sent.map((found) => [found.status, found.sent_count])).toEqual([["SENT", 1]])
    } finally {
      await runtime.dispose()
    }
  })

  it("a scan for messages that fails (the book locked a moment) is told and tried again: a broadcast created meanwhile is still sent", async () => {
    await withSmsc(delivered, async (smsc, runtime) => {
      await book(runtime, 3)
      await runtime.runPromise(Messaging.sendToGroups({ tags: ["news"], message: "hello" }))
      let scans = 0
      const told: Array<string> = []
      const flaky = Layer.effect(MessageStore.MessageStore, Effect.map(Effect.service(MessageStore.MessageStore), (store) => ({
        ...store,
        stream: (filter: MessageStore.Filter) =>
          ++scans === 1 ? Stream.fail(new StoreFailure({ operation: "messages.stream", reason: "database is locked" })) : store.stream(filter)
      }))).pipe(Layer.provide(Layer.succeedContext(await runtime.context())))
      const summary = await runtime.runPromise(Effect.provide(
        Dispatcher.run(TestSmsc.clientConfig(smsc.port), once({ messagesEveryMs: 50, receiptWaitMs: 2000 }), (notice) => void told.push(notice._tag)),
        flaky
      ))
      expect(scans).toBeGreaterThan(1)
      expect(told).toContain("ScanFailed")
      expect(summary.submitted).toBe(3)
      expect(smsc.accepted).toHaveLength(3)
    })
  })

  it("--once against an SMSC that is not there fails within the connect timeout, naming its address and why, and sends nothing", async () => {
    const runtime = runtimeFor(join(folder, "book.db"))
    const silent = await TestSmsc.silentServer()
    try {
      await book(runtime, 1)
      await runtime.runPromise(Messaging.sendToContact({ msisdn: "447400900000", message: "hello" }))
      const closed = await TestSmsc.closedPort()
      for (
        const [port, why] of [
          [closed, `connection refused: nothing listens on 127.0.0.1:${closed}`],
          [silent.port, `127.0.0.1:${silent.port} took the connection but did not answer bind_transceiver within 0.3 s`]
        ] as const
      ) {
        const started = Date.now()
        // Bounded here too, so a run that hangs fails the test rather than outlive it.
        const run = Dispatcher.run(TestSmsc.clientConfig(port, { connectTimeoutMs: 300 }), once(), () => undefined)
        const failure = await runtime.runPromise(Effect.flip(Effect.timeout(run, "4 seconds")))
        expect(Date.now() - started).toBeLessThan(4000)
        expect(failure).toBeInstanceOf(CarrierFailure)
        expect(failure.message).toContain(`the link to the carrier failed: no bind to the SMSC as smsbook after 0.3 s: ${why}`)
      }
      // The part waits for the next run: nothing was claimed for good.
      const queue = await runtime.runPromise(Effect.service(PartQueue.PartQueue))
      expect(await runtime.runPromise(queue.pending)).toBe(1)
    } finally {
      await silent.close()
      await runtime.dispose()
    }
  })

  /** Kannel's smsbox at 127.0.0.1:`port` as a `kannel://` URL names it, with `parameters`. */
  const kannelAt = (port: number, parameters: string) => {
    const parsed = KannelConfig.parse(`kannel://smsbook:secret@127.0.0.1:${port}?callback=http://127.0.0.1:9&${parameters}`)
    if (parsed._tag !== "Success") throw new Error(parsed.failure.message)
    return parsed.success
  }

  /**
   * An HTTP server on 127.0.0.1 standing in for smsbox's sendsms port, each request answered by `handler`; `close`
   * cuts its connections too (a handler may call it: nothing listens there from then on).
   */
  const smsboxServer = async (handler: (request: Http.IncomingMessage, response: Http.ServerResponse, close: () => Promise<void>) => void) => {
    const sockets = new Set<Socket>()
    const close = () =>
      new Promise<void>((closed) => {
        server.close(() => closed())
        for (const socket of sockets) socket.destroy()
      })
    const server = Http.createServer((request, response) => handler(request, response, close))
    server.on("connection", (socket) => sockets.add(socket))
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
    const address = server.address()
    return { port: typeof address === "object" && address !== null ? address.port : 0, close }
  }

  it("--once against an smsbox that is not there fails within the connect timeout (and the stop), naming its address and what to check; the part waits for the next run", async () => {
    const runtime = runtimeFor(join(folder, "book.db"))
    try {
      await book(runtime, 1)
      await runtime.runPromise(Messaging.sendToContact({ msisdn: "447400900000", message: "hello" }))
      const closed = await TestSmsc.closedPort()
      const started = Date.now()
      // Bounded here too, so a run that hangs (it retried forever) fails the test rather than outlive it.
      const run = Dispatcher.run(kannelAt(closed, "connect_timeout_ms=300"), once(), () => undefined)
      const failure = await runtime.runPromise(Effect.flip(Effect.timeout(run, "10 seconds")))
      // The connect timeout: nothing is on the wire for the stop to wait for.
      expect(Date.now() - started).toBeLessThan(3000)
      expect(failure).toBeInstanceOf(CarrierFailure)
      expect(failure.message).toBe(
        `the link to the carrier failed: no answer from smsbox to the sendsms-user smsbook since the run began: connection refused: nothing listens on 127.0.0.1:${closed}; check the host and port of the carrier URL (smsbox's sendsms-port), and that smsbox is running`
      )
      expect(failure.message).not.toContain("secret")
      // It was never sent: queued again for the next run.
      const queue = await runtime.runPromise(Effect.service(PartQueue.PartQueue))
      expect(await runtime.runPromise(queue.pending)).toBe(1)
    } finally {
      await runtime.dispose()
    }
  })

  it("--once against a server that takes the link's probe and never answers fails within the connect timeout, saying what to check; the part is never sent and waits for the next run", async () => {
    const runtime = runtimeFor(join(folder, "book.db"))
    const silent = await TestSmsc.silentServer()
    try {
      await book(runtime, 1)
      await runtime.runPromise(Messaging.sendToContact({ msisdn: "447400900000", message: "hello" }))
      const started = Date.now()
      const run = Dispatcher.run(kannelAt(silent.port, "connect_timeout_ms=300&response_timeout_ms=200"), once(), () => undefined)
      const failure = await runtime.runPromise(Effect.flip(Effect.timeout(run, "10 seconds")))
      expect(Date.now() - started).toBeLessThan(3000)
      expect(failure).toBeInstanceOf(CarrierFailure)
      expect(failure.message).toBe(
        `the link to the carrier failed: no answer from smsbox to the sendsms-user smsbook since the run began: 127.0.0.1:${silent.port} took the connection but did not answer (no answer within 0.3 s); check that the carrier URL's port is smsbox's sendsms-port`
      )
      // The probe alone (no message, no credentials) reached the port; the part was never sent.
      const requests = silent.received().match(/^GET \S+/gm) ?? []
      expect(requests).toEqual(["GET /cgi-bin/sendsms"])
      const queue = await runtime.runPromise(Effect.service(PartQueue.PartQueue))
      expect(await runtime.runPromise(queue.pending)).toBe(1)
    } finally {
      await silent.close()
      await runtime.dispose()
    }
  })

  it("--once against an smsbox that answers its probes and never a message fails when it would end; the parts went one at a time", async () => {
    const runtime = runtimeFor(join(folder, "book.db"))
    // A probe (no query) is refused 403 at once, as smsbox refuses a request without credentials; a message is held.
    const messages: Array<string> = []
    const held = new Set<Http.ServerResponse>()
    let most = 0
    const lossy = await smsboxServer((request, response) => {
      if (!(request.url ?? "").includes("?")) return void response.writeHead(403).end("Authorization failed for sendsms")
      messages.push(request.url ?? "")
      held.add(response)
      most = Math.max(most, held.size)
      // The dispatcher gives up on it (its response timeout) and closes the connection.
      response.on("close", () => held.delete(response))
    })
    const { port } = lossy
    try {
      await book(runtime, 3)
      for (let i = 0; i < 3; i++) await runtime.runPromise(Messaging.sendToContact({ msisdn: `44740090000${i}`, message: "hello" }))
      const run = Dispatcher.run(kannelAt(port, "receipts=false&window=5&connect_timeout_ms=60000&response_timeout_ms=200"), once(), () => undefined)
      const failure = await runtime.runPromise(Effect.flip(Effect.timeout(run, "20 seconds")))
      expect(failure).toBeInstanceOf(CarrierFailure)
      expect(failure.message).toMatch(/^the link to the carrier failed: no answer from smsbox to the sendsms-user smsbook since the run began: the answer to k\d+ was lost: no answer within 0\.2 s$/)
      // Every message was taken and never answered, but never more than one at a time was on the wire.
      expect([messages.length, most]).toEqual([3, 1])
    } finally {
      await lossy.close()
      await runtime.dispose()
    }
  })

  it("--once with nothing to send, waiting for a receipt, against an smsbox whose first probe failed and the next answered, ends done", async () => {
    const runtime = runtimeFor(join(folder, "book.db"))
    // Probes are refused 403, as smsbox refuses a request without credentials, and messages taken (202); in the
    // second run the first probe's connection is cut (a failure, as smsbox restarting would give).
    let probes = 0
    let cutFirst = false
    const flaky = await smsboxServer((request, response) => {
      if ((request.url ?? "").includes("?")) return void response.writeHead(202).end("0: Accepted for delivery")
      if (cutFirst && probes++ === 0) return void response.socket?.destroy()
      response.writeHead(403).end("Authorization failed for sendsms")
    })
    const { port } = flaky
    try {
      await book(runtime, 1)
      await runtime.runPromise(Messaging.sendToContact({ msisdn: "447400900000", message: "hello" }))
      const first = await runtime.runPromise(Dispatcher.run(kannelAt(port, "connect_timeout_ms=300"), once({ receiptWaitMs: 0 }), () => undefined))
      expect(first.submitted).toBe(1)
      // Nothing to send; the part's receipt is waited for 1 s, past the connect timeout, with the first probe failed.
      cutFirst = true
      const run = Dispatcher.run(kannelAt(port, "connect_timeout_ms=300"), once({ receiptWaitMs: 1000 }), () => undefined)
      const summary = await runtime.runPromise(Effect.timeout(run, "10 seconds"))
      expect(summary.submitted).toBe(0)
      expect(probes).toBeGreaterThan(1)
    } finally {
      await flaky.close()
      await runtime.dispose()
    }
  })

  it("--once whose first probe failed and whose first message smsbox answers after the connect timeout ends done", async () => {
    const runtime = runtimeFor(join(folder, "book.db"))
    let probes = 0
    const slow = await smsboxServer((request, response) => {
      if (!(request.url ?? "").includes("?")) {
        if (probes++ === 0) return void response.socket?.destroy()
        return void response.writeHead(403).end("Authorization failed for sendsms")
      }
      setTimeout(() => response.writeHead(202).end("0: Accepted for delivery"), 800)
    })
    const { port } = slow
    try {
      await book(runtime, 1)
      await runtime.runPromise(Messaging.sendToContact({ msisdn: "447400900000", message: "hello" }))
      const run = Dispatcher.run(kannelAt(port, "receipts=false&connect_timeout_ms=300&response_timeout_ms=5000"), once(), () => undefined)
      const summary = await runtime.runPromise(Effect.timeout(run, "10 seconds"))
      expect(summary.submitted).toBe(1)
    } finally {
      await slow.close()
      await runtime.dispose()
    }
  })

  it("--once against an smsbox that answers a probe and then goes away fails at the connect timeout; the part waits", async () => {
    const runtime = runtimeFor(join(folder, "book.db"))
    const { port } = await smsboxServer((_request, response, close) => {
      response.writeHead(403).end("Authorization failed for sendsms")
      // Then nothing listens there any more: the message's request is refused.
      void close()
    })
    try {
      await book(runtime, 1)
      await runtime.runPromise(Messaging.sendToContact({ msisdn: "447400900000", message: "hello" }))
      const started = Date.now()
      const run = Dispatcher.run(kannelAt(port, "connect_timeout_ms=300"), once(), () => undefined)
      const failure = await runtime.runPromise(Effect.flip(Effect.timeout(run, "10 seconds")))
      expect(Date.now() - started).toBeLessThan(3000)
      expect(failure).toBeInstanceOf(CarrierFailure)
      expect(failure.message).toContain(`connection refused: nothing listens on 127.0.0.1:${port}`)
      const queue = await runtime.runPromise(Effect.service(PartQueue.PartQueue))
      expect(await runtime.runPromise(queue.pending)).toBe(1)
    } finally {
      await runtime.dispose()
    }
  })

  it("without --once, an smsbox that is not there is asked again with backoff, each failure a notice naming its address", async () => {
    const runtime = runtimeFor(join(folder, "book.db"))
    try {
      await book(runtime, 1)
      await runtime.runPromise(Messaging.sendToContact({ msisdn: "447400900000", message: "hello" }))
      const closed = await TestSmsc.closedPort()
      const notices: Array<Dispatcher.Notice> = []
      const run = Dispatcher.run(kannelAt(closed, "connect_timeout_ms=100"), once({ once: false }), (notice) => notices.push(notice))
      // Still running long after the connect timeout: interrupted by the test's own timeout, not failed.
      const stopped = await runtime.runPromise(Effect.flip(Effect.timeout(run, "1500 millis")))
      expect(stopped._tag).toBe("TimeoutError")
      const failures = notices.flatMap((notice) => notice._tag === "Link" && notice.event._tag === "Disconnected" ? [notice.event.reason] : [])
      expect(failures.length).toBeGreaterThanOrEqual(2)
      expect(new Set(failures)).toEqual(new Set([expect.stringContaining(`nothing listens on 127.0.0.1:${closed}`)]))
      expect(notices.filter((notice) => Dispatcher.isWarning(notice)).length).toBe(notices.filter((notice) => notice._tag === "Link").length)
    } finally {
      await runtime.dispose()
    }
  })
})
