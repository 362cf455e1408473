import smpp, { type Pdu } from "smpp"
import { describe, expect, it } from "vitest"
import * as Link from "../src/internal/link.ts"
import * as TestSmsc from "./TestSmsc.ts"

const submitParams = (n: number) => ({
  source_addr: "smsbook",
  destination_addr: `4474000000${String(n).padStart(2, "0")}`,
  data_coding: 0,
  short_message: Buffer.from([0x41 + (n % 26)])
})

const withLink = async <A>(script: TestSmsc.Script, overrides: Partial<Link.Options>, run: (smsc: TestSmsc.TestSmsc, link: Link.Link, events: Array<Link.Event>) => Promise<A>) => {
  const smsc = await TestSmsc.start(script)
  const events: Array<Link.Event> = []
  const link = Link.open(TestSmsc.clientConfig(smsc.port, overrides), async () => 0, (event) => events.push(event))
  try {
    return await run(smsc, link, events)
  } finally {
    await link.close()
    await smsc.close()
  }
}

describe("SMPP link", () => {
  it("binds as a transceiver and gets every submit accepted once", async () => {
    await withLink({ respondDelayMs: 2 }, {}, async (smsc, link) => {
      const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => link.submit(submitParams(i))))
      expect(outcomes.every((outcome) => outcome._tag === "Accepted")).toBe(true)
      expect(new Set(outcomes.map((outcome) => outcome._tag === "Accepted" ? outcome.messageId : "")).size).toBe(30)
      expect(smsc.accepted.map((part) => part.destination)).toEqual(Array.from({ length: 30 }, (_, i) => submitParams(i).destination_addr))
      expect(smsc.binds()).toBe(1)
    })
  })

  it("retries throttled and queue-full submits with backoff, each part accepted exactly once, in order", async () => {
    for (const status of [0x58, 0x14]) {
      await withLink({ throttleEvery: 4, throttleStatus: status, respondDelayMs: 1 }, { window: 1 }, async (smsc, link, events) => {
        const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => link.submit(submitParams(i))))
        expect(outcomes.every((outcome) => outcome._tag === "Accepted")).toBe(true)
        expect(smsc.accepted.map((part) => part.destination)).toEqual(Array.from({ length: 20 }, (_, i) => submitParams(i).destination_addr))
        expect(events.filter((event) => event._tag === "Throttled").length).toBeGreaterThanOrEqual(5)
      })
    }
  })

  it("sends again a submit the SMSC failed for now (ESME_RSYSERR, ESME_RX_T_APPN), a few times, then takes it as refused", async () => {
    for (const status of [0x08, 0x64]) {
      // The first answer is the temporary failure: the part is accepted on its second try, never refused.
      await withLink({ throttle: (n) => n === 1, throttleStatus: status }, {}, async (smsc, link) => {
        expect(await link.submit(submitParams(1))).toMatchObject({ _tag: "Accepted" })
        expect(smsc.accepted.length).toBe(1)
      })
    }
    // An SMSC that fails it every time: refused after its retries, not sent for ever.
    await withLink({ throttle: () => true, throttleStatus: 0x08 }, {}, async (smsc, link) => {
      expect(await link.submit(submitParams(1))).toEqual({ _tag: "Refused", status: 0x08 })
      expect(smsc.submits()).toBe(4)
    })
  })

  it("backs off once for a window throttled together: an answer to a submit_sm sent before the wait began does not lengthen it", async () => {
    // The SMSC throttles the whole first window of 8 (as one over its rate does), then takes everything.
    await withLink({ throttle: (n) => n <= 8, respondDelayMs: 5 }, { window: 8, throttleMs: { initial: 20, max: 2000 } }, async (smsc, link, events) => {
      const started = Date.now()
      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => link.submit(submitParams(i))))
      expect(outcomes.every((outcome) => outcome._tag === "Accepted")).toBe(true)
      const waits = events.flatMap((event) => event._tag === "Throttled" ? [event.retryInMs] : [])
      expect(waits.length).toBe(8)
      expect(Math.max(...waits)).toBeLessThanOrEqual(20)
      // One wait of 20 ms, not 20 + 40 + … + 2000.
      expect(Date.now() - started).toBeLessThan(500)
      // Back in the order they were written, not reversed by each going back to the head.
      expect(smsc.accepted.map((part) => part.destination)).toEqual(Array.from({ length: 8 }, (_, i) => submitParams(i).destination_addr))
    })
  })

  it("doubles the throttle wait burst after burst up to its maximum, and halves it on an accepted submit", async () => {
    // Window 1: each retry is written after the latest wait began, so each throttle is a burst of its own.
    await withLink({ throttle: (n) => n <= 5 || n === 7 }, { window: 1, throttleMs: { initial: 20, max: 100 } }, async (smsc, link, events) => {
      expect(await link.submit(submitParams(1))).toMatchObject({ _tag: "Accepted" })
      expect(await link.submit(submitParams(2))).toMatchObject({ _tag: "Accepted" })
      const waits = events.flatMap((event) => event._tag === "Throttled" ? [event.retryInMs] : [])
      expect(waits).toEqual([20, 40, 80, 100, 100, 50])
      expect(smsc.accepted.length).toBe(2)
    })
  })

  it("after a throttle and then a drop, parts go out again in the order they were first written", async () => {
    // A is throttled (its answer late), B accepted, C written in B's place and held unanswered until the link drops:
    // C and A both go back, and A was written first.
    const taken: Array<string> = []
    let submits = 0
    let sessions = 0
    const server = smpp.createServer({}, (session) => {
      const first = ++sessions === 1
      session.on("error", () => undefined)
      session.on("bind_transceiver", (pdu: Pdu) => void session.send(pdu.response({ system_id: "smsc" })))
      session.on("enquire_link", (pdu: Pdu) => void session.send(pdu.response()))
      session.on("unbind", (pdu: Pdu) => {
        session.send(pdu.response())
        session.socket.end()
      })
      session.on("submit_sm", (pdu: Pdu) => {
        const n = ++submits
        const destination = String(pdu["destination_addr"])
        if (first && n === 1) return void setTimeout(() => session.send(pdu.response({ command_status: 0x58 })), 30)
        if (first && n === 3) return void setTimeout(() => session.socket.destroy(), 80)
        taken.push(destination)
        session.send(pdu.response({ message_id: `m${n}` }))
      })
    })
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", () => listening()))
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    const link = Link.open(TestSmsc.clientConfig(port, { window: 2, throttleMs: { initial: 300, max: 1000 } }), async () => 0, () => undefined)
    try {
      const outcomes = await Promise.all([0, 1, 2, 3].map((i) => link.submit(submitParams(i))))
      expect(outcomes.every((outcome) => outcome._tag === "Accepted")).toBe(true)
      expect(taken).toEqual([1, 0, 2, 3].map((i) => submitParams(i).destination_addr))
    } finally {
      await link.close()
      server.close()
    }
  })

  it("rebinds after the link drops mid-window and resubmits only the unanswered parts", async () => {
    await withLink({ dropAtSubmit: [15], respondDelayMs: 5 }, { window: 10 }, async (smsc, link, events) => {
      const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => link.submit(submitParams(i))))
      expect(outcomes.every((outcome) => outcome._tag === "Accepted")).toBe(true)
      const destinations = smsc.accepted.map((part) => part.destination)
      expect(destinations.length).toBe(40)
      expect(new Set(destinations).size).toBe(40)
      expect(smsc.unanswered.length).toBeGreaterThan(0)
      expect(smsc.binds()).toBe(2)
      expect(events.some((event) => event._tag === "Disconnected")).toBe(true)
    })
  })

  it("keeps trying a refused bind with backoff, then sends", async () => {
    await withLink({ bindStatus: (attempt) => attempt <= 2 ? 0x0d : 0 }, {}, async (smsc, link, events) => {
      const outcome = await link.submit(submitParams(1))
      expect(outcome._tag).toBe("Accepted")
      expect(smsc.binds()).toBe(3)
      expect(events.filter((event) => event._tag === "BindRefused").length).toBe(2)
    })
  })

  it("fails queued submissions after the configured number of refused binds", async () => {
    await withLink({ bindStatus: () => 0x0e }, { maxBindAttempts: 3 }, async (smsc, link) => {
      const outcome = await link.submit(submitParams(1))
      expect(outcome._tag).toBe("LinkFailed")
      expect(smsc.binds()).toBe(3)
      expect(smsc.accepted.length).toBe(0)
    })
  })

  it("keeps at most `window` submits outstanding", async () => {
    await withLink({ respondDelayMs: 20 }, { window: 3 }, async (smsc, link) => {
      await Promise.all(Array.from({ length: 12 }, (_, i) => link.submit(submitParams(i))))
      expect(smsc.maxOutstanding()).toBe(3)
      expect(link.outstanding()).toBe(0)
    })
  })

  it("holds the tps limit per bind", async () => {
    await withLink({}, { tps: 50, window: 100 }, async (smsc, link) => {
      const started = Date.now()
      await Promise.all(Array.from({ length: 26 }, (_, i) => link.submit(submitParams(i))))
      // 26 submits at 50/s: the first at once, the last 500 ms later.
      expect(Date.now() - started).toBeGreaterThanOrEqual(480)
      expect(smsc.accepted.length).toBe(26)
    })
  })

  it("sends enquire_link when idle and rebinds when the SMSC stops answering", async () => {
    await withLink({}, { enquireLinkMs: 50, responseTimeoutMs: 200 }, async (smsc, link) => {
      await link.submit(submitParams(1))
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(link.isBound()).toBe(true)
      expect(smsc.enquireLinks()).toBeGreaterThanOrEqual(2)
      smsc.dropLink()
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(link.isBound()).toBe(true)
      expect(smsc.binds()).toBe(2)
    })
  })

  it("answers the SMSC's enquire_link: an SMSC that hears nothing back drops the bind", async () => {
    await withLink({}, {}, async (smsc, link) => {
      await link.submit(submitParams(1))
      const answer = await Promise.race([
        smsc.request(new smpp.PDU("enquire_link", {})),
        new Promise<"unanswered">((resolve) => setTimeout(() => resolve("unanswered"), 2000))
      ])
      expect(answer === "unanswered" ? answer : { command: answer.command, status: answer.command_status })
        .toEqual({ command: "enquire_link_resp", status: 0 })
    })
  })

  it("drops and binds again when the SMSC keeps the connection but stops answering enquire_link", async () => {
    await withLink({ answerEnquireLink: false }, { enquireLinkMs: 50, responseTimeoutMs: 200 }, async (smsc, link, events) => {
      await link.submit(submitParams(1))
      await TestSmsc.waitFor(() => smsc.binds() >= 2, "a second bind")
      expect(events).toContainEqual(expect.objectContaining({ _tag: "Disconnected", reason: "enquire_link was not answered in time" }))
    })
  })

  it("starts the rebind backoff over once bound: a drop after refused binds waits the initial time, not the last", async () => {
    await withLink({ bindStatus: (attempt) => attempt <= 3 ? 0x0d : 0 }, { reconnectMs: { initial: 20, max: 1000 } }, async (smsc, link, events) => {
      expect((await link.submit(submitParams(1)))._tag).toBe("Accepted")
      smsc.dropLink()
      await TestSmsc.waitFor(() => events.filter((event) => event._tag === "Disconnected").length === 4 && link.isBound(), "the bind after the drop")
      expect(events.flatMap((event) => event._tag === "Disconnected" ? [event.retryInMs] : [])).toEqual([20, 40, 80, 20])
    })
  })

  it("names the address and what to check when nothing listens there, and keeps trying", async () => {
    const port = await TestSmsc.closedPort()
    const events: Array<Link.Event> = []
    const link = Link.open(TestSmsc.clientConfig(port, { reconnectMs: { initial: 20, max: 20 } }), async () => 0, (event) => events.push(event))
    try {
      await new Promise((resolve) => setTimeout(resolve, 200))
      const reasons = events.flatMap((event) => event._tag === "Disconnected" ? [event.reason] : [])
      expect(reasons.length).toBeGreaterThanOrEqual(2)
      expect(reasons[0]).toBe(
        `connection refused: nothing listens on 127.0.0.1:${port}; check the host and port of the carrier URL, and that the SMSC is running`
      )
      expect(link.isBound()).toBe(false)
    } finally {
      await link.close()
    }
  })

  it("leaves no timer behind once closed while it waits to connect again: a stopped run's process can end", async () => {
    const port = await TestSmsc.closedPort()
    const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length
    const before = timers()
    const events: Array<Link.Event> = []
    const link = Link.open(TestSmsc.clientConfig(port, { reconnectMs: { initial: 60_000, max: 60_000 } }), async () => 0, (event) => events.push(event))
    const started = Date.now()
    while (events.length === 0 && Date.now() - started < 3000) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(events[0]).toMatchObject({ _tag: "Disconnected", retryInMs: 60_000 })
    await link.close()
    expect(timers()).toBe(before)
  })

  it("gives up an attempt not bound within connectTimeoutMs: a server that takes the connection and never answers the bind", async () => {
    const silent = await TestSmsc.silentServer()
    const events: Array<Link.Event> = []
    const link = Link.open(
      TestSmsc.clientConfig(silent.port, { connectTimeoutMs: 100, reconnectMs: { initial: 20, max: 20 } }),
      async () => 0,
      (event) => events.push(event)
    )
    try {
      const started = Date.now()
      const outcome = link.submit(submitParams(1))
      while (silent.connections() < 2 && Date.now() - started < 3000) await new Promise((resolve) => setTimeout(resolve, 10))
      // The first attempt was dropped after its timeout and a second one made: it never waits for the bind forever.
      expect(silent.connections()).toBeGreaterThanOrEqual(2)
      const [first] = events.flatMap((event) => event._tag === "Disconnected" ? [event.reason] : [])
      expect(first).toBe(
        `127.0.0.1:${silent.port} took the connection but did not answer bind_transceiver within 0.1 s; check that the carrier URL's port is the SMSC's SMPP port`
      )
      await link.close()
      expect(await outcome).toMatchObject({ _tag: "LinkFailed", sent: false })
    } finally {
      await link.close()
      await silent.close()
    }
  })

  it("answers a request it does not serve as SMPP 3.4 says: an unknown command_id with generic_nack ESME_RINVCMDID, a known one with its _resp", async () => {
    await withLink({}, {}, async (smsc, link) => {
      await link.submit(submitParams(1))
      // A header of a command_id no SMPP version defines, and no body.
      const unknown = Buffer.alloc(16)
      unknown.writeUInt32BE(16, 0)
      unknown.writeUInt32BE(0x00000099, 4)
      const nack = await smsc.request(unknown)
      expect({ command: nack.command, status: nack.command_status }).toEqual({ command: "generic_nack", status: 0x03 })
      const query = await smsc.request(new smpp.PDU("query_sm", { message_id: "1", source_addr: "SHOP" }))
      expect(query.command).toBe("query_sm_resp")
      expect(query.command_status).not.toBe(0)
      // The link stays bound and usable.
      expect((await link.submit(submitParams(2)))._tag).toBe("Accepted")
      expect(smsc.binds()).toBe(1)
    })
  })

  it("after giving up on refused binds, binds again for a later submission instead of holding it forever", async () => {
    let refuse = true
    await withLink({ bindStatus: () => refuse ? 0x0e : 0 }, { maxBindAttempts: 2 }, async (smsc, link) => {
      expect((await link.submit(submitParams(1)))._tag).toBe("LinkFailed")
      expect(smsc.binds()).toBe(2)
      refuse = false
      const later = await Promise.race([link.submit(submitParams(2)), new Promise((resolve) => setTimeout(() => resolve("held"), 2000))])
      expect(later).toMatchObject({ _tag: "Accepted" })
      expect(smsc.binds()).toBe(3)
    })
  })
})
