import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import type * as Link from "../src/internal/link.ts"
import * as KannelConfig from "../src/KannelConfig.ts"
import * as KannelLink from "../src/KannelLink.ts"

/** What the fake smsbox does with one request. */
type Act = "accept" | "full" | "refuse" | "unreachable" | "lost"

const config = (overrides: Partial<KannelConfig.KannelConfig> = {}): KannelConfig.KannelConfig => ({
  ...KannelConfig.defaults,
  sendsmsUrl: "http://127.0.0.1:1/cgi-bin/sendsms",
  username: "u",
  password: "p",
  receipts: false,
  retryMs: { initial: 1, max: 4 },
  responseTimeoutMs: 50,
  ...overrides
})

const refused = () => Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) })

/** What the fake smsbox does with the link's probes (a request without a message): `Act`'s "lost" never answers. */
type ProbeAct = "answer" | "unreachable" | "lost"

/**
 * A fake smsbox answering each request by `script(url, attempt)` after `delayMs`, and each probe by `probe(n)` (403,
 * as smsbox refuses a sendsms request without credentials); it records every request, which ones it took (a 2xx, or
 * one whose answer was lost), the probes, and the most in flight at once.
 */
const fakeSmsbox = (script: (url: string, attempt: number) => Act, delayMs = 1, probe: (n: number) => ProbeAct = () => "answer") => {
  let probes = 0
  const probeRequest = (signal: AbortSignal) => {
    const act = probe(probes++)
    return new Promise<number>((resolve, reject) => {
      if (act === "lost") return signal.addEventListener("abort", () => reject(signal.reason))
      setTimeout(() => act === "unreachable" ? reject(refused()) : resolve(403), delayMs)
    })
  }
  const attempts = new Map<string, number>()
  const taken: Array<string> = []
  const inflight = new Map<string, number>()
  let most = 0
  let mostPerNumber = 0
  const request = (url: string, signal: AbortSignal) => {
    if (!url.includes("?")) return probeRequest(signal)
    const attempt = attempts.get(url) ?? 0
    attempts.set(url, attempt + 1)
    const act = script(url, attempt)
    const number = /[?&]to=(\d+)/.exec(url)?.[1] ?? ""
    inflight.set(number, (inflight.get(number) ?? 0) + 1)
    most = Math.max(most, [...inflight.values()].reduce((sum, n) => sum + n, 0))
    mostPerNumber = Math.max(mostPerNumber, inflight.get(number) ?? 0)
    const done = () => inflight.set(number, (inflight.get(number) ?? 1) - 1)
    return new Promise<number>((resolve, reject) => {
      if (act === "lost") {
        taken.push(url)
        signal.addEventListener("abort", () => {
          done()
          reject(signal.reason)
        })
        return
      }
      setTimeout(() => {
        done()
        if (act === "unreachable") return reject(refused())
        if (act === "accept") taken.push(url)
        resolve(act === "accept" ? 202 : act === "full" ? 503 : 400)
      }, delayMs)
    })
  }
  return { request, taken, attempts, probes: () => probes, most: () => most, mostPerNumber: () => mostPerNumber }
}

const submission = (number: string, id: string) => ({ url: `http://smsbox/?to=${number}&id=${id}`, destination: number, id })

/** A journal that allows what `allow` says and records what it was told. */
const journalOf = (allow: (key: number) => boolean = () => true) => {
  const told = { before: [] as Array<number>, notTaken: [] as Array<number> }
  const journal: Link.Journal = {
    beforeWrite: async (keys) => {
      told.before.push(...keys)
      return keys.filter(allow)
    },
    notTaken: async (keys) => void told.notTaken.push(...keys)
  }
  return { journal, told }
}

describe("KannelLink", () => {
  it("reads smsbox's answers: 2xx taken, 503 and 429 not now, other statuses refused; only connection failures left the request unsent", () => {
    expect([202, 200, 503, 429, 400, 403, 500].map((status) => KannelLink.verdict(status)._tag)).toEqual(["Accepted", "Accepted", "Retry", "Retry", "Refused", "Refused", "Refused"])
    expect(KannelLink.unsent(refused())).toBe(true)
    expect(KannelLink.failureCode(refused())).toBe("ECONNREFUSED")
    expect(KannelLink.unsent(new Error("smsbox did not answer in time"))).toBe(false)
    expect(KannelLink.unsent(Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNRESET" } }))).toBe(false)
  })

  it("keeps to the window and one request per number at a time; the journal hears every part before its request", async () => {
    const smsbox = fakeSmsbox(() => "accept", 5)
    const { journal, told } = journalOf()
    const link = KannelLink.open(config({ window: 3 }), () => undefined, journal, smsbox.request)
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => link.submit(submission(`4474000000${i % 4}`, `k${i}`), i)))
    expect(outcomes.map((outcome) => outcome._tag === "Accepted" ? outcome.messageId : outcome._tag)).toEqual(Array.from({ length: 12 }, (_, i) => `k${i}`))
    expect([smsbox.most(), smsbox.mostPerNumber(), smsbox.taken.length]).toEqual([3, 1, 12])
    expect(told.before.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i))
    await link.close()
  })

  it("holds the tps limit", async () => {
    const smsbox = fakeSmsbox(() => "accept", 0)
    const link = KannelLink.open(config({ tps: 50, window: 10 }), () => undefined, undefined, smsbox.request)
    const started = Date.now()
    await Promise.all(Array.from({ length: 11 }, (_, i) => link.submit(submission(`44740000${String(i).padStart(4, "0")}`, `k${i}`))))
    // 11 requests at 50/s: the last no sooner than 10 × 20 ms after the first.
    expect(Date.now() - started).toBeGreaterThanOrEqual(190)
    await link.close()
  })

  it("asks again after a 503 and while smsbox is unreachable, telling the journal; a request whose answer was lost is never made again", async () => {
    const events: Array<Link.Event["_tag"]> = []
    const smsbox = fakeSmsbox((url, attempt) =>
      url.includes("k1") ? (attempt < 2 ? "full" : "accept") : url.includes("k2") ? (attempt < 2 ? "unreachable" : "accept") : "lost")
    const { journal, told } = journalOf()
    const link = KannelLink.open(config(), (event) => events.push(event._tag), journal, smsbox.request)
    const outcomes = await Promise.all([link.submit(submission("447400000001", "k1"), 1), link.submit(submission("447400000002", "k2"), 2), link.submit(submission("447400000003", "k3"), 3)])
    expect(outcomes).toEqual([
      { _tag: "Accepted", messageId: "k1" },
      { _tag: "Accepted", messageId: "k2" },
      // Its answer was lost: taken as submitted under its id (its report will name it), never asked again.
      { _tag: "Accepted", messageId: "k3" }
    ])
    expect([smsbox.attempts.get(submission("447400000003", "k3").url), told.notTaken.toSorted()]).toEqual([1, [1, 1, 2, 2]])
    expect(events).toEqual(expect.arrayContaining(["Throttled", "Disconnected", "Bound"]))
    expect(link.isBound()).toBe(true)
    await link.close()
  })

  it("names smsbox's address and what to check when it cannot be reached, or a port takes the probe and never answers", async () => {
    const at = config({ sendsmsUrl: "http://127.0.0.1:14013/cgi-bin/sendsms" })
    const failure = (code: string) => Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error(code), { code }) })
    expect(KannelLink.connectFailure(at, refused())).toBe(
      "connection refused: nothing listens on 127.0.0.1:14013; check the host and port of the carrier URL (smsbox's sendsms-port), and that smsbox is running"
    )
    expect(KannelLink.connectFailure(config({ sendsmsUrl: "http://smsbox.invalid:13013/cgi-bin/sendsms" }), failure("ENOTFOUND"))).toBe(
      "cannot resolve the host name smsbox.invalid; check the host of the carrier URL"
    )
    expect(KannelLink.connectFailure(at, failure("UND_ERR_CONNECT_TIMEOUT"))).toContain("no answer from 127.0.0.1:14013 to the connection")
    // The first probe is taken and never answered (a wrong port?), the second is answered (smsbox is there: Bound), so
    // k1 goes; k2's answer is lost, so k3 waits for a third probe.
    const events: Array<Link.Event> = []
    const smsbox = fakeSmsbox((url) => url.includes("k2") ? "lost" : "accept", 1, (n) => n === 0 ? "lost" : "answer")
    const link = KannelLink.open({ ...at, connectTimeoutMs: 30 }, (event) => events.push(event), undefined, smsbox.request)
    const outcomes = [
      await link.submit(submission("447400000001", "k1")),
      await link.submit(submission("447400000002", "k2")),
      await link.submit(submission("447400000003", "k3"))
    ]
    await link.close()
    expect(events.map((event) => event._tag === "Disconnected" ? event.reason : event._tag)).toEqual([
      "127.0.0.1:14013 took the connection but did not answer (no answer within 0.03 s); check that the carrier URL's port is smsbox's sendsms-port",
      "Bound",
      "the answer to k2 was lost: no answer within 0.05 s",
      "Bound"
    ])
    expect(outcomes.map((outcome) => outcome._tag === "Accepted" ? outcome.messageId : outcome._tag)).toEqual(["k1", "k2", "k3"])
    expect([smsbox.probes(), smsbox.taken.length]).toEqual([3, 3])
  })

  it("against an smsbox that answers probes and loses every message: one message at a time, each after a longer wait, never Bound", async () => {
    const events: Array<Link.Event> = []
    const smsbox = fakeSmsbox(() => "lost", 0)
    const link = KannelLink.open(config({ window: 5, responseTimeoutMs: 10, retryMs: { initial: 5, max: 40 } }), (event) => events.push(event), undefined, smsbox.request)
    const outcomes = await Promise.all(Array.from({ length: 5 }, (_, i) => link.submit(submission(`44740000000${i}`, `k${i}`))))
    await link.close()
    // Each counts as sent (smsbox may have it), but they went one by one: a window would have lost five at once.
    expect(outcomes.map((outcome) => outcome._tag)).toEqual(["Accepted", "Accepted", "Accepted", "Accepted", "Accepted"])
    expect(smsbox.most()).toBe(1)
    expect(smsbox.probes()).toBe(5)
    expect(events.some((event) => event._tag === "Bound")).toBe(false)
    const waits = events.flatMap((event) => event._tag === "Disconnected" ? [event.retryInMs] : [])
    expect(waits).toEqual([5, 10, 20, 40, 40])
  })

  it("hands the parts the journal cleared back to it when smsbox stops answering before they go out", async () => {
    const smsbox = fakeSmsbox((url) => url.includes("k0") ? "accept" : url.includes("k1") ? "lost" : "accept", 1, (n) => n === 0 ? "answer" : "lost")
    const { journal, told } = journalOf()
    // 40/s: k1 and k3 are cleared together, k3 to go 25 ms after k1, whose answer is lost after 10 ms.
    const link = KannelLink.open(config({ window: 3, tps: 40, responseTimeoutMs: 10, connectTimeoutMs: 20 }), () => undefined, journal, smsbox.request)
    expect(await link.submit(submission("447400000000", "k0"), 0)).toMatchObject({ _tag: "Accepted" })
    // No probe is answered after k1's loss.
    const outcomes = [link.submit(submission("447400000001", "k1"), 1), link.submit(submission("447400000001", "k2"), 2), link.submit(submission("447400000003", "k3"), 3)]
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(told.before.toSorted()).toEqual([0, 1, 3])
    // k3 was cleared and waited (k2 waits behind k1, its number: never cleared): told not taken, stored back as queued.
    expect(told.notTaken.toSorted()).toEqual([3])
    expect(smsbox.attempts.has(submission("447400000003", "k3").url)).toBe(false)
    await link.close()
    expect((await Promise.all(outcomes)).map((outcome) => outcome._tag)).toEqual(["Accepted", "LinkFailed", "LinkFailed"])
  })

  it("backs off once for a window whose answers are lost together, not once per part", async () => {
    const events: Array<Link.Event> = []
    const smsbox = fakeSmsbox((url) => url.includes("k0") ? "accept" : "lost", 0)
    const link = KannelLink.open(config({ window: 5, responseTimeoutMs: 20, retryMs: { initial: 5, max: 1000 } }), (event) => events.push(event), undefined, smsbox.request)
    await link.submit(submission("447400000000", "k0"))
    await Promise.all(Array.from({ length: 5 }, (_, i) => link.submit(submission(`44740000001${i}`, `k${i + 1}`))))
    await link.close()
    expect(smsbox.most()).toBe(5)
    expect(events.flatMap((event) => event._tag === "Disconnected" ? [[event.retryInMs, event.inDoubt]] : [])).toEqual([[5, 1], [0, 1], [0, 1], [0, 1], [0, 1]])
  })

  it("waits once for a window smsbox refuses together (503), not once per part", async () => {
    const events: Array<Link.Event> = []
    const smsbox = fakeSmsbox((url, attempt) => url.includes("k0") || attempt > 0 ? "accept" : "full", 0)
    const link = KannelLink.open(config({ window: 5, retryMs: { initial: 50, max: 10_000 } }), (event) => events.push(event), undefined, smsbox.request)
    await link.submit(submission("447400000000", "k0"))
    const started = Date.now()
    await Promise.all(Array.from({ length: 5 }, (_, i) => link.submit(submission(`44740000001${i}`, `k${i + 1}`))))
    await link.close()
    const waits = events.flatMap((event) => event._tag === "Throttled" ? [event.retryInMs] : [])
    expect(waits).toHaveLength(5)
    expect(waits[0]).toBe(50)
    for (const wait of waits.slice(1)) expect(wait).toBeLessThanOrEqual(50)
    // One step of backoff for the burst: per part, the fifth would have waited 800 ms.
    expect(Date.now() - started).toBeLessThan(400)
    // Back in the order they were sent, not reversed by each going back to the head.
    expect(smsbox.taken.map((url) => /id=(k\d)/.exec(url)?.[1])).toEqual(["k0", "k1", "k2", "k3", "k4", "k5"])
  })

  it("under a tps limit too, a window smsbox refuses together waits once", async () => {
    const events: Array<Link.Event> = []
    const smsbox = fakeSmsbox((url, attempt) => url.includes("k0") || attempt > 0 ? "accept" : "full", 150)
    const link = KannelLink.open(config({ window: 5, tps: 10, retryMs: { initial: 50, max: 10_000 } }), (event) => events.push(event), undefined, smsbox.request)
    await link.submit(submission("447400000000", "k0"))
    await Promise.all(Array.from({ length: 5 }, (_, i) => link.submit(submission(`44740000001${i}`, `k${i + 1}`))))
    await link.close()
    // Each 503 answers a request sent before the first wait began: none lengthens it.
    for (const wait of events.flatMap((event) => event._tag === "Throttled" ? [event.retryInMs] : [])) expect(wait).toBeLessThanOrEqual(50)
  })

  it("hands back to the journal a part whose clearing ends after the link unbound", async () => {
    const told = { before: [] as Array<number>, notTaken: [] as Array<number> }
    // Clearing takes 50 ms: k1 fails to connect meanwhile, and no probe is answered after it.
    const journal: Link.Journal = {
      beforeWrite: async (keys) => {
        told.before.push(...keys)
        await new Promise((resolve) => setTimeout(resolve, keys.includes(2) ? 50 : 0))
        return keys
      },
      notTaken: async (keys) => void told.notTaken.push(...keys)
    }
    const smsbox = fakeSmsbox((url) => url.includes("k0") ? "accept" : "unreachable", 10, (n) => n === 0 ? "answer" : "unreachable")
    const link = KannelLink.open(config({ window: 3, connectTimeoutMs: 20 }), () => undefined, journal, smsbox.request)
    await link.submit(submission("447400000000", "k0"), 0)
    const outcomes = [link.submit(submission("447400000001", "k1"), 1)]
    await new Promise((resolve) => setTimeout(resolve, 2))
    outcomes.push(link.submit(submission("447400000002", "k2"), 2))
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(told.before).toEqual([0, 1, 2])
    expect(told.notTaken.toSorted()).toEqual([1, 2])
    await link.close()
    expect((await Promise.all(outcomes)).map((outcome) => outcome._tag)).toEqual(["LinkFailed", "LinkFailed"])
  })

  it("sends nothing to a port that never answers its probes: the parts stay unsent, none in doubt", async () => {
    const events: Array<Link.Event["_tag"]> = []
    const smsbox = fakeSmsbox(() => "accept", 1, () => "lost")
    const link = KannelLink.open(config({ connectTimeoutMs: 10 }), (event) => events.push(event._tag), undefined, smsbox.request)
    const outcomes = [link.submit(submission("447400000001", "k1")), link.submit(submission("447400000002", "k2"))]
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect([link.isBound(), link.outstanding()]).toEqual([false, 2])
    await link.close()
    expect(await Promise.all(outcomes)).toEqual([
      { _tag: "LinkFailed", reason: "the link is closed", sent: false },
      { _tag: "LinkFailed", reason: "the link is closed", sent: false }
    ])
    expect(smsbox.attempts.size).toBe(0)
    expect(smsbox.probes()).toBeGreaterThan(1)
    expect(new Set(events)).toEqual(new Set(["Disconnected"]))
  })

  it("withholds what the journal does not allow, and settles everything on close", async () => {
    const smsbox = fakeSmsbox((url) => url.includes("k0") ? "accept" : "lost")
    const { journal } = journalOf((key) => key !== 2)
    const link = KannelLink.open(config({ responseTimeoutMs: 60_000 }), () => undefined, journal, smsbox.request)
    // Answered: the link sends a window at a time from now on.
    expect(await link.submit(submission("447400000000", "k0"), 0)).toEqual({ _tag: "Accepted", messageId: "k0" })
    const first = link.submit(submission("447400000001", "k1"), 1)
    const second = link.submit(submission("447400000002", "k2"), 2)
    const third = link.submit(submission("447400000001", "k3"), 3)
    expect(await second).toEqual({ _tag: "Withheld" })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(link.outstanding()).toBe(2)
    await link.close()
    expect(await first).toMatchObject({ _tag: "LinkFailed", sent: true })
    expect(await third).toMatchObject({ _tag: "LinkFailed", sent: false })
    expect(await link.submit(submission("447400000009", "k9"), 9)).toMatchObject({ _tag: "LinkFailed", sent: false })
  })

  it("never has smsbox take a part twice, and each outcome follows smsbox's last answer", async () => {
    const act = fc.constantFrom<Act>("accept", "accept", "full", "refuse", "unreachable", "lost")
    await fc.assert(fc.asyncProperty(fc.array(fc.array(act, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }), async (scripts) => {
      // Each part's answers in turn; after its script runs out smsbox accepts.
      const smsbox = fakeSmsbox((url, attempt) => scripts[Number(/id=k(\d+)/.exec(url)?.[1])]?.[attempt] ?? "accept", 0)
      const { journal } = journalOf()
      const link = KannelLink.open(config({ window: 3, responseTimeoutMs: 20 }), () => undefined, journal, smsbox.request)
      const outcomes = await Promise.all(scripts.map((_, i) => link.submit(submission(`44740000000${i % 3}`, `k${i}`), i)))
      await link.close()
      scripts.forEach((script, i) => {
        const url = submission(`44740000000${i % 3}`, `k${i}`).url
        const last = [...script, "accept"].find((step) => step !== "full" && step !== "unreachable")
        const outcome = outcomes[i]
        expect(smsbox.taken.filter((taken) => taken === url).length).toBeLessThanOrEqual(1)
        if (last === "accept") expect(outcome).toEqual({ _tag: "Accepted", messageId: `k${i}` })
        // Asked again only after smsbox did not take it.
        expect(smsbox.attempts.get(url)).toBe(script.findIndex((step) => step !== "full" && step !== "unreachable") + 1 || script.length + 1)
        if (last === "refuse") expect(outcome).toEqual({ _tag: "Refused", status: 400 })
        if (last === "lost") expect(outcome).toEqual({ _tag: "Accepted", messageId: `k${i}` })
      })
    }), { numRuns: 40 })
  })
})
