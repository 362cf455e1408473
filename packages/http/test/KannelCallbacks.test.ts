import { Account, ContactBook, Messaging, PartQueue } from "@smsbook/core"
import * as ApiKeyStore from "@smsbook/store/ApiKeyStore"
import * as PartStore from "@smsbook/store/PartStore"
import * as Store from "@smsbook/store/Store"
import { Effect, Layer, ManagedRuntime, Redacted, Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as KannelCallbacks from "../src/KannelCallbacks.ts"
import { account, start, withLockedBook } from "./running.ts"
import * as Stores from "./stores.ts"

/** Every octet as %XX, as a strict client would write it. */
const escapeAll = (octets: Uint8Array): string => [...octets].map((octet) => `%${octet.toString(16).padStart(2, "0")}`).join("")

const utf16be = (text: string): Uint8Array => Uint8Array.from([...Array(text.length).keys()].flatMap((i) => [text.charCodeAt(i) >> 8, text.charCodeAt(i) & 0xff]))

const params = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([name, value]) => [name, new TextEncoder().encode(value)] as const))

describe("KannelCallbacks reading", () => {
  it("reads query values as the octets sent, whatever they are; + is a space; the first of a name wins", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 20 }), (text, other) => {
      const query = KannelCallbacks.queryOctets(`/kannel/mo?text=${escapeAll(text)}&from=%2B447400123456&text=${escapeAll(other)}`)
      expect([...(query.get("text") ?? [])]).toEqual([...text])
      expect(new TextDecoder().decode(query.get("from"))).toBe("+447400123456")
    }))
    expect(new TextDecoder().decode(KannelCallbacks.percentDecode("a+b%20c%zz%4"))).toBe("a b c%zz%4")
  })

  it("reads characters a client left unescaped as their UTF-8, astral ones whole", () => {
    const unescaped = fc.string({ unit: "grapheme", maxLength: 50 }).filter((text) => !/[%+]/.test(text))
    fc.assert(fc.property(unescaped, (text) => {
      expect([...KannelCallbacks.percentDecode(text)]).toEqual([...new TextEncoder().encode(text)])
    }))
    expect(new TextDecoder().decode(KannelCallbacks.percentDecode("👍%20ok"))).toBe("👍 ok")
  })

  it("decodes an inbound text by smsbox's charset, else by its coding", () => {
    const wellFormed = fc.string({ unit: "grapheme", maxLength: 100 })
    fc.assert(fc.property(wellFormed, (text) => {
      expect(KannelCallbacks.decodeText(utf16be(text), "2", undefined)).toEqual(Result.succeed(text))
      expect(KannelCallbacks.decodeText(utf16be(text), "0", "UTF-16BE")).toEqual(Result.succeed(text))
      expect(KannelCallbacks.decodeText(new TextEncoder().encode(text), "0", "utf-8")).toEqual(Result.succeed(text))
      expect(KannelCallbacks.decodeText(new TextEncoder().encode(text), undefined, "")).toEqual(Result.succeed(text))
    }))
    expect(KannelCallbacks.decodeText(Uint8Array.of(0xe9, 0x41), "1", undefined)).toEqual(Result.succeed("éA"))
  })

  it("refuses what it cannot read with an InvalidField naming the parameter and the value", () => {
    const failureOf = <A>(result: Result.Result<A, { readonly field: string; readonly value: string }>) =>
      Result.isFailure(result) ? [result.failure.field, result.failure.value] : undefined
    expect(failureOf(KannelCallbacks.decodeText(Uint8Array.of(0x41), "0", "EBCDIC"))).toEqual(["charset", "EBCDIC"])
    expect(failureOf(KannelCallbacks.decodeText(Uint8Array.of(0x41), "7", undefined))).toEqual(["coding", "7"])
    expect(failureOf(KannelCallbacks.decodeText(Uint8Array.of(0xff, 0xfe, 0x41), "0", "UTF-8"))).toEqual(["text", "fffe41"])
    expect(failureOf(KannelCallbacks.parseInbound(params({ text: "hi" })))).toEqual(["from", ""])
    expect(failureOf(KannelCallbacks.parseReport(params({ to: "447400123456", type: "1" })))).toEqual(["id", ""])
    expect(failureOf(KannelCallbacks.parseReport(params({ id: "k1", to: "447400123456", type: "%d" })))).toEqual(["type", "%d"])
    expect(failureOf(KannelCallbacks.parseReport(params({ id: "k1", to: "447400123456", type: "0" })))).toEqual(["type", "0"])
  })

  it("turns Kannel's report kinds into part states, the SMSC's stat making a failure precise", () => {
    const cases: ReadonlyArray<readonly [number, string, PartQueue.State | undefined]> = [
      [1, "id:1 sub:001 dlvrd:001 stat:DELIVRD err:000", "delivered"],
      [2, "id:1 sub:001 dlvrd:000 stat:UNDELIV err:001", "undeliverable"],
      [2, "id:1 stat:EXPIRED", "expired"],
      [2, "id:1 stat:rejectd", "rejected"],
      [2, "id:1 stat:DELETED", "deleted"],
      [2, "", "undeliverable"],
      [16, "NACK/0x00000045/Submit failed", "rejected"],
      [4, "", undefined],
      [8, "ACK/", undefined]
    ]
    for (const [type, answer, state] of cases) expect([type, answer, KannelCallbacks.stateOf(type, answer)]).toEqual([type, answer, state])
    expect(KannelCallbacks.parseReport(params({ id: "k9", to: "+447400123456", type: "2", answer: "stat:EXPIRED" })))
      .toEqual(Result.succeed({ _tag: "State", id: "k9", msisdn: "447400123456", state: "expired" }))
    expect(KannelCallbacks.parseReport(params({ id: "k9", to: "447400123456", type: "8" }))).toEqual(Result.succeed({ _tag: "Progress", id: "k9", type: 8 }))
  })
})

const msisdn = "447400123456"

describe.each(Stores.kinds)("Kannel's callbacks on a server over %s", (kind) => {
  it("read a sender smsbox hands over nationally in the server's default country; without one it is refused 400", async () => {
    const store = await Stores.fresh(kind)
    const book = ManagedRuntime.make(Layer.mergeAll(Store.layer(store.url), Account.layer(account)))
    const national = `0${msisdn.slice(2)}`
    try {
      await book.runPromise(ContactBook.createContact(msisdn, { first_name: "Ann" }))
      const without = await start({ store: store.url, noAuth: true })
      try {
        const refused = await fetch(`${without.url}/kannel/mo?from=${national}&text=STOP`)
        const { error } = (await refused.json()) as { error: { code: string; message: string } }
        expect([refused.status, error.code]).toEqual([400, "INVALID_MSISDN"])
        expect(error.message).toContain("serve --default-country")
      } finally {
        await without.close()
      }
      expect((await book.runPromise(ContactBook.getContact(msisdn))).status).toBe("SUBSCRIBED")
      const server = await start({ store: store.url, noAuth: true, defaultCountry: "GB" })
      try {
        expect((await fetch(`${server.url}/kannel/mo?from=${national}&text=STOP`)).status).toBe(200)
      } finally {
        await server.close()
      }
      expect((await book.runPromise(ContactBook.getContact(msisdn))).status).toBe("CANCELLED")
    } finally {
      await book.dispose()
      await store.drop()
    }
  })

  it("take inbound SMS and delivery reports with a key in the URL; refuse them without", async () => {
    const store = await Stores.fresh(kind)
    const book = ManagedRuntime.make(Layer.mergeAll(Store.layer(store.url), PartStore.layer(store.url), Account.layer(account)))
    const server = await start({ store: store.url })
    try {
      const key = await book.runPromise(Effect.flatMap(Effect.service(ApiKeyStore.ApiKeyStore), (keys) => keys.create("kannel")))
      const secret = Redacted.value(key.secret)
      await book.runPromise(ContactBook.createContact(msisdn, { first_name: "Ann" }))
      const get = (path: string) => fetch(`${server.url}${path}`)

      expect((await get(`/kannel/mo?from=${msisdn}&text=STOP`)).status).toBe(401)
      expect((await get(`/kannel/mo?key=smsbook_wrong&from=${msisdn}&text=STOP`)).status).toBe(401)
      expect((await book.runPromise(ContactBook.getContact(msisdn))).status).toBe("SUBSCRIBED")

      const bad = await get(`/kannel/mo?key=${secret}&from=${msisdn}&text=hi&coding=9`)
      expect([bad.status, ((await bad.json()) as { error: { details: { field: string } } }).error.details.field]).toEqual([400, "coding"])

      // A UCS-2 reply as smsbox passes it (%b, %c, %C), then a STOP: recorded, and the contact opted out.
      const reply = "Спасибо 👍"
      const answered = await get(`/kannel/mo?key=${secret}&from=%2B${msisdn}&text=${escapeAll(utf16be(reply))}&coding=2&charset=UTF-16BE`)
      expect([answered.status, await answered.text()]).toEqual([200, ""])
      expect((await get(`/kannel/mo?key=${secret}&from=${msisdn}&text=STOP&coding=0&charset=UTF-8`)).status).toBe(200)
      expect((await book.runPromise(ContactBook.getContact(msisdn))).status).toBe("CANCELLED")
      const inbound = await book.runPromise(Messaging.listMessages({ direction: "MO" }))
      expect(inbound.map((message) => message.message).toSorted()).toEqual(["STOP", reply].toSorted())

      // A part smsbox took (as the dispatcher stores it), then its report.
      const queue = PartQueue.PartQueue
      await book.runPromise(ContactBook.resubscribe(msisdn))
      const sent = await book.runPromise(Effect.flatMap(Messaging.sendToContact({ msisdn, message: "Hello" }), (message) => Messaging.deliverMessage(message.message_id ?? "")))
      const dispatcher = { owner: "test", host: "localhost", pid: process.pid }
      const [part] = await book.runPromise(Effect.gen(function*() {
        const parts = yield* queue
        yield* parts.enter(dispatcher, Date.now(), 30_000)
        const claim = yield* parts.claim("test", 10, Date.now(), 30_000)
        yield* parts.sending(claim.parts.map((claimed) => claimed.seq))
        yield* parts.answer(claim.parts.map((claimed) => ({ seq: claimed.seq, smscId: `k${claimed.seq}` })))
        yield* parts.leave(dispatcher)
        return claim.parts
      }))
      if (part === undefined) throw new Error("no part was queued")
      const report = (type: number, answer: string, keyed = secret) =>
        get(`/kannel/dlr?key=${keyed}&id=k${part.seq}&to=${msisdn}&type=${type}&answer=${encodeURIComponent(answer)}`)
      expect((await report(2, "id:77 stat:EXPIRED", "smsbook_wrong")).status).toBe(401)
      expect((await report(8, "ACK/")).status).toBe(200)
      const first = await report(2, "id:77 sub:001 dlvrd:000 stat:EXPIRED err:001")
      expect([first.status, await first.text()]).toEqual([200, `part 1 of ${sent.message_id}: expired`])
      const again = await report(1, "id:77 stat:DELIVRD")
      expect([again.status, await again.text()]).toEqual([200, "duplicate: expired"])
      const states = await book.runPromise(Effect.flatMap(queue, (parts) => parts.states(sent.message_id ?? "")))
      expect(states.map((state) => state.state)).toEqual(["expired"])
      const [message] = await book.runPromise(Messaging.listMessages({ direction: "MT" }))
      expect([message?.sent_count, message?.error_count]).toEqual([1, 1])
      if (kind === "sqlite") {
        // A report naming no part waits for it a while, then asks smsbox to try again.
        const unknown = await get(`/kannel/dlr?key=${secret}&id=k999999&to=${msisdn}&type=1`)
        expect(unknown.status).toBe(503)
      }
    } finally {
      await server.close()
      await book.dispose()
      await store.drop()
    }
  }, 30_000)
})

describe("Kannel's callbacks on a memory: book with --no-auth", () => {
  it("take inbound SMS without a key; reports have no outbox to go to", async () => {
    const server = await start({ store: "memory:", noAuth: true })
    try {
      expect((await fetch(`${server.url}/kannel/mo?from=${msisdn}&text=hello`)).status).toBe(200)
      const report = await fetch(`${server.url}/kannel/dlr?id=k1&to=${msisdn}&type=1`)
      expect([report.status, ((await report.json()) as { error: { code: string } }).error.code]).toEqual([503, "NOT_READY"])
    } finally {
      await server.close()
    }
  })
})

describe("a store failure in Kannel's callbacks", () => {
  it("is answered 500 STORE_FAILURE and its cause is in the request's log line, as the body says", () =>
    // Another process's write lock on the book: the inbound message waits 100 ms for it, then fails.
    withLockedBook("100 millis", async (server) => {
      const before = server.log.length
      const response = await fetch(`${server.url}/kannel/mo?from=${msisdn}&text=STOP`)
      expect(response.status).toBe(500)
      expect(await response.json()).toMatchObject({ error: { code: "STORE_FAILURE", message: expect.stringContaining("the cause is in the server's log") } })
      const line = JSON.parse(server.log.slice(before).find((text) => text.includes("/kannel/mo")) ?? "{}")
      expect(line).toMatchObject({ status: 500, failure: expect.stringMatching(/^StoreFailure: /) })
    }))
})
