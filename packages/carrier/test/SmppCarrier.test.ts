import { Account, ContactBook, MemoryStore, Messaging, Sms } from "@smsbook/core"
import { Effect, Layer, ManagedRuntime } from "effect"
import * as fc from "fast-check"
import smpp from "smpp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type * as Deliveries from "../src/Deliveries.ts"
import * as Inbound from "../src/internal/inbound.ts"
import * as Link from "../src/internal/link.ts"
import * as Receipt from "../src/Receipt.ts"
import * as SmppCarrier from "../src/SmppCarrier.ts"
import * as SmppConfig from "../src/SmppConfig.ts"
import * as ShortMessage from "../src/ShortMessage.ts"
import { ucs2Text, gsmText } from "./arbitraries.ts"
import * as TestSmsc from "./TestSmsc.ts"

const shortName = "Shop"

/** A memory book whose carrier is SMPP to `smsc`, with every notice kept. */
const runtimeFor = (smsc: TestSmsc.TestSmsc, overrides: Partial<SmppConfig.SmppConfig> = {}, receiving: Messaging.ReceiveOptions = {}) => {
  const notices: Array<SmppCarrier.Notice> = []
  const base = Layer.mergeAll(MemoryStore.layer, Account.layer({ ...Account.defaults, short_name: shortName, short_code: "SHOP" }))
  const layer = SmppCarrier.layer(TestSmsc.clientConfig(smsc.port, overrides), (notice) => notices.push(notice), receiving).pipe(Layer.provideMerge(base))
  return { runtime: ManagedRuntime.make(layer), notices }
}

const { waitFor } = TestSmsc

let counter = 0
const nextMsisdn = () => `4474001${String(10000 + counter++).padStart(5, "0")}`

describe.each<ShortMessage.Packing>(["unpacked", "packed"])("SMPP carrier, %s GSM-7", (packing) => {
  let smsc: TestSmsc.TestSmsc
  let env: ReturnType<typeof runtimeFor>

  beforeAll(async () => {
    smsc = await TestSmsc.start({ packed: packing === "packed", throttleEvery: 7, respondDelayMs: 1 })
    env = runtimeFor(smsc, { packing })
  })
  afterAll(async () => {
    await env.runtime.dispose()
    await smsc.close()
  })

  it("law: the parts the SMSC receives reassemble to the prefixed text, one PDU per segment of core, sent_count = parts", async () => {
    const budget = Sms.budget(shortName)
    await fc.assert(fc.asyncProperty(fc.oneof(gsmText(budget), ucs2Text(budget - 1)).filter((text) => text.trim() !== ""), async (text) => {
      const msisdn = nextMsisdn()
      const before = smsc.accepted.length
      const sent = await env.runtime.runPromise(Messaging.sendNow({ msisdn, message: text }))
      const analysis = Sms.analyzePrefixed(shortName, text)
      const received = smsc.accepted.slice(before).filter((part) => part.destination === msisdn)
      expect(sent.sent_count).toBe(analysis.segments)
      expect(received.length).toBe(analysis.segments)
      const [whole] = smsc.reassembled().filter((message) => message.destination === msisdn)
      if (packing === "unpacked") expect(whole?.text).toBe(Sms.prefix(shortName, text))
      else {
        // Packed, a part ending in CR on an octet boundary carries a second CR (3GPP TS 23.038
        // 6.1.2.3.1), which displays the same: each part reads as core's, that CR aside.
        const texts = received.sort((a, b) => (a.concatenation?.sequence ?? 1) - (b.concatenation?.sequence ?? 1)).map((part) => part.text)
        texts.forEach((got, index) => {
          const want = analysis.parts[index] ?? ""
          expect([want, `${want}\r`]).toContain(got)
          if (got !== want) expect(want.endsWith("\r")).toBe(true)
        })
      }
      expect(received.every((part) => part.dataCoding === (analysis.encoding === "UCS-2" ? 8 : 0))).toBe(true)
    }), { numRuns: 40 })
  })
})

describe("SMPP carrier: receipts", () => {
  it("turns DELIVRD/UNDELIV/EXPIRED receipts (delayed, out of order, early, duplicated, TLV or text) into part states and error_count", async () => {
    const stats: ReadonlyArray<TestSmsc.Stat> = ["DELIVRD", "UNDELIV", "EXPIRED", "DELIVRD", "REJECTD"]
    const smsc = await TestSmsc.start({
      respondDelayMs: 2,
      receipt: (_part, index) => ({
        stat: stats[index % stats.length] ?? "DELIVRD",
        // Later parts' receipts come sooner: out of order.
        delayMs: 60 - (index % 6) * 10,
        beforeResponse: index % 4 === 3,
        duplicate: index % 5 === 1 && index % 4 !== 3,
        form: index % 2 === 0 ? "tlv" : "text"
      })
    })
    const env = runtimeFor(smsc)
    try {
      const contacts = Array.from({ length: 10 }, () => nextMsisdn())
      await env.runtime.runPromise(Effect.forEach(contacts, (msisdn) => ContactBook.createContact(msisdn, { first_name: "A" }).pipe(
        Effect.andThen(ContactBook.editContact(msisdn, { tags: ["news"] }))
      )))
      const result = await env.runtime.runPromise(Messaging.broadcast({ tags: ["news"], message: "ж".repeat(80) }, { allowEmpty: false }))
      expect(result.message.sent_count).toBe(20)
      const deliveries = await env.runtime.runPromise(Effect.map(Effect.service(SmppCarrier.SmppCarrier), (carrier) => carrier.deliveries))
      await waitFor(() => deliveries.parts().every((part) => part.state !== "submitted"))
      const byId = smsc.receipts
      const expectedFailed = [...byId.values()].filter((stat) => stat !== "DELIVRD").length
      expect(expectedFailed).toBeGreaterThan(0)
      expect(deliveries.parts().length).toBe(20)
      for (const part of deliveries.parts()) {
        const stat = byId.get(part.smscId ?? "")
        const expected: Deliveries.PartState["state"] = stat === "DELIVRD" ? "delivered" : stat === "UNDELIV" ? "undeliverable" : stat === "EXPIRED" ? "expired" : "rejected"
        expect(part.state).toBe(expected)
      }
      expect(deliveries.errorCount(result.message.message_id)).toBe(expectedFailed)
      await waitFor(() => env.notices.filter((notice) => notice._tag === "Receipt" && notice.applied._tag === "Duplicate").length >= 3)
      // Receipts sent before their submit_sm_resp were kept and applied when it came.
      expect(env.notices.filter((notice) => notice._tag === "ReceiptParked").length).toBe(5)
      // A receipt nobody can match is reported, not dropped.
      await smsc.sendReceipt("nosuchid", "DELIVRD")
      expect(env.notices.some((notice) => notice._tag === "Receipt" && notice.applied._tag === "Unknown" && notice.applied.receipt.messageId === "nosuchid")).toBe(true)
    } finally {
      await env.runtime.dispose()
      await smsc.close()
    }
  })
})

describe("SMPP carrier: receipt texts", () => {
  it("reads a receipt's Appendix B text as the ASCII octets SMSCs write, whatever the link's GSM-7 packing", async () => {
    // A link set to packed GSM-7 still gets receipts as plain ASCII text (the test SMSC writes them so, as SMSCs do).
    const smsc = await TestSmsc.start({ packed: true, receipt: () => ({ stat: "UNDELIV", delayMs: 5, form: "text" }) })
    const env = runtimeFor(smsc, { packing: "packed" })
    try {
      const sent = await env.runtime.runPromise(Messaging.sendNow({ msisdn: nextMsisdn(), message: "hello" }))
      const deliveries = await env.runtime.runPromise(Effect.map(Effect.service(SmppCarrier.SmppCarrier), (carrier) => carrier.deliveries))
      await waitFor(() => env.notices.some((notice) => notice._tag === "Receipt" || notice._tag === "UnreadableReceipt"))
      expect(env.notices.filter((notice) => notice._tag === "UnreadableReceipt")).toEqual([])
      expect(deliveries.parts().map((part) => part.state)).toEqual(["undeliverable"])
      expect(deliveries.errorCount(sent.message_id ?? "")).toBe(1)
    } finally {
      await env.runtime.dispose()
      await smsc.close()
    }
  })

  it("reads a receipted_message_id within its TLV length: an SMSC that leaves out its NUL still names the part", async () => {
    const smsc = await TestSmsc.start({})
    const env = runtimeFor(smsc)
    try {
      await env.runtime.runPromise(Messaging.sendNow({ msisdn: nextMsisdn(), message: "hello" }))
      const deliveries = await env.runtime.runPromise(Effect.map(Effect.service(SmppCarrier.SmppCarrier), (carrier) => carrier.deliveries))
      const [part] = smsc.accepted
      const id = Buffer.from(part?.messageId ?? "", "latin1")
      // The TLV's 9 octets without their NUL, then message_state (DELIVERED): the package read on into the next TLV.
      const pdu = new smpp.PDU("deliver_sm", { source_addr: part?.destination, esm_class: 0x04, short_message: Buffer.from("stat:DELIVRD") }).toBuffer()
      const tlvs = Buffer.concat([Buffer.from([0x00, 0x1e, 0x00, id.length]), id, Buffer.from([0x04, 0x27, 0x00, 0x01, 0x02])])
      const octets = Buffer.concat([pdu, tlvs])
      octets.writeUInt32BE(octets.length, 0)
      expect((await smsc.request(octets)).command_status).toBe(0)
      expect(deliveries.parts().map((part) => part.state)).toEqual(["delivered"])
    } finally {
      await env.runtime.dispose()
      await smsc.close()
    }
  })

  /** An unpacked link's inbound handler that keeps the receipts it reads. */
  const receiptReader = () => {
    const receipts: Array<Receipt.Receipt> = []
    const inbound = Inbound.make({ packing: "unpacked", reassemblyTimeoutMs: 60_000 }, {
      receive: () => Promise.resolve(0),
      receipt: (receipt) => Promise.resolve(void receipts.push(receipt)).then(() => 0),
      notify: () => undefined
    })
    return { inbound, receipts }
  }

  it("keeps the characters ASCII and GSM-7 place apart in a receipt's id (`_`, `@`, `$`)", async () => {
    const { inbound, receipts } = receiptReader()
    const text = Receipt.format({ messageId: "msg_0@1$a", stat: "DELIVRD" })
    expect(await inbound.handle({ command: "deliver_sm", esm_class: 0x04, data_coding: 0, source_addr: "447400000000", short_message: Buffer.from(text, "latin1") })).toBe(0)
    expect(receipts.map((receipt) => receipt.messageId)).toEqual(["msg_0@1$a"])
  })

  it("reads a receipt an SMSC writes in GSM-7 (data_coding 0, its default alphabet) by its decoded text: its octets name no ASCII id", async () => {
    const { inbound, receipts } = receiptReader()
    // `_` `@` `$` are GSM-7's 0x11 0x00 0x02: read as ASCII the id held control characters and named no part.
    const septets = ShortMessage.septets(Receipt.format({ messageId: "msg_0@1$a", stat: "DELIVRD" })) ?? new Uint8Array()
    expect(await inbound.handle({ command: "deliver_sm", esm_class: 0x04, data_coding: 0, source_addr: "447400000000", short_message: Buffer.from(septets) })).toBe(0)
    expect(receipts.map((receipt) => receipt.messageId)).toEqual(["msg_0@1$a"])
  })
})

describe("SMPP carrier: inbound", () => {
  let smsc: TestSmsc.TestSmsc
  let env: ReturnType<typeof runtimeFor>

  beforeAll(async () => {
    smsc = await TestSmsc.start({})
    env = runtimeFor(smsc, { reassemblyTimeoutMs: 200 }, { defaultCountry: "GB" })
    await env.runtime.runPromise(Effect.void)
    await waitFor(() => smsc.binds() === 1)
  })
  afterAll(async () => {
    await env.runtime.dispose()
    await smsc.close()
  })

  const inbound = () => env.runtime.runPromise(Messaging.listMessages({ direction: "MO", Limit: "1000" }))

  /** The texts recorded from `from`, once there is one (a held part is answered before its message is recorded). */
  const recordedFrom = async (from: string) => {
    const until = Date.now() + 5000
    for (;;) {
      const texts = (await inbound()).filter((message) => message.msisdn === from).map((message) => message.message)
      if (texts.length > 0 || Date.now() > until) return texts
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  it("records a STOP and opts the sender out before acknowledging the deliver_sm", async () => {
    const msisdn = nextMsisdn()
    await env.runtime.runPromise(ContactBook.createContact(msisdn, { first_name: "B" }))
    const statuses = await smsc.sendInbound(msisdn, "SHOP", "stop")
    expect(statuses).toEqual([0])
    const contact = await env.runtime.runPromise(ContactBook.getContact(msisdn))
    expect(contact.status).toBe("CANCELLED")
    expect((await inbound()).some((message) => message.msisdn === msisdn && message.message === "stop")).toBe(true)
  })

  it("reads a sender the SMSC hands over nationally in the default country: its STOP opts the contact out", async () => {
    const msisdn = nextMsisdn()
    await env.runtime.runPromise(ContactBook.createContact(msisdn, { first_name: "N" }))
    const national = `0${msisdn.slice(2)}`
    for (const ton of [2, 0]) {
      expect(await smsc.deliver({ source_addr_ton: ton, source_addr: national, destination_addr: "SHOP", short_message: Buffer.from(`stop ${ton}`) })).toBe(0)
    }
    expect(await smsc.deliver({ source_addr_ton: 2, source_addr: msisdn.slice(2), destination_addr: "SHOP", short_message: Buffer.from("STOP") })).toBe(0)
    // International (TON 1), with or without its own `00`.
    for (const address of [msisdn, `00${msisdn}`]) {
      expect(await smsc.deliver({ source_addr_ton: 1, source_addr: address, destination_addr: "SHOP", short_message: Buffer.from(`stop ${address.slice(0, 2)}`) })).toBe(0)
    }
    expect((await env.runtime.runPromise(ContactBook.getContact(msisdn))).status).toBe("CANCELLED")
    expect((await inbound()).filter((message) => message.msisdn === msisdn).map((message) => message.message).sort())
      .toEqual(["STOP", "stop 0", "stop 00", "stop 2", "stop 44"])
  })

  it("keeps an address the SMSC marks international (TON 1) international: never a national number of the default country", () => {
    // Under --default-country IT, 3286701009 alone is an Italian mobile; as TON 1 it is Belgium's +32 86 70 10 09.
    expect(Inbound.senderOf({ command: "deliver_sm", source_addr_ton: 1, source_addr: "3286701009" })).toBe("+3286701009")
    expect(Inbound.senderOf({ command: "deliver_sm", source_addr_ton: 1, source_addr: "+3286701009" })).toBe("+3286701009")
    // Its own international prefix kept: `+00…` would be no number at all, and the STOP refused for good.
    expect(Inbound.senderOf({ command: "deliver_sm", source_addr_ton: 1, source_addr: "00447400123459" })).toBe("00447400123459")
    expect(Inbound.senderOf({ command: "deliver_sm", source_addr_ton: 2, source_addr: "3286701009" })).toBe("3286701009")
    expect(Inbound.senderOf({ command: "deliver_sm", source_addr_ton: 0, source_addr: "03286701009" })).toBe("03286701009")
    expect(Inbound.senderOf({ command: "deliver_sm", source_addr_ton: 5, source_addr: "SHOP" })).toBe("SHOP")
  })

  it("reassembles concatenated parts that arrive out of order, GSM-7 and UCS-2", async () => {
    const gsmFrom = nextMsisdn()
    const ucsFrom = nextMsisdn()
    const gsm = "Hello there, this is a long message that comes in three parts {with} extension chars €"
    const ucs = "Привет! Это длинное сообщение из нескольких частей 😀 с эмодзи"
    expect(await smsc.sendInbound(gsmFrom, "SHOP", gsm, { parts: 3, order: [2, 0, 1] })).toEqual([0, 0, 0])
    expect(await smsc.sendInbound(ucsFrom, "SHOP", ucs, { parts: 2, order: [1, 0], ucs2: true })).toEqual([0, 0])
    const messages = await inbound()
    expect(messages.filter((message) => message.msisdn === gsmFrom).map((message) => message.message)).toEqual([gsm])
    expect(messages.filter((message) => message.msisdn === ucsFrom).map((message) => message.message)).toEqual([ucs])
  })

  it("reassembles the parts of an SMSC that sends the next only once the one before is answered (a deliver window of 1)", async () => {
    const from = nextMsisdn()
    const parts = ["Hello, this is ", "one message ", "in three parts"]
    for (const [index, text] of parts.entries()) {
      const started = Date.now()
      const udh = Buffer.from([0x05, 0x00, 0x03, 0x2a, parts.length, index + 1])
      expect(await smsc.deliver({ source_addr_ton: 1, source_addr: from, destination_addr: "SHOP", esm_class: 0x40, short_message: Buffer.concat([udh, Buffer.from(text)]) })).toBe(0)
      // Answered before the reassembly timeout (200 ms here): the next part can come in time.
      expect(Date.now() - started).toBeLessThan(150)
    }
    expect(await recordedFrom(from)).toEqual([parts.join("")])
  })

  it("answers the parts of a whole message by its record, however long the record takes: a failed one is sent again", async () => {
    // Longer than the parts' hold (1 s at most), as a write waiting behind an import can be.
    const inbound = Inbound.make({ packing: "unpacked", reassemblyTimeoutMs: 60_000 }, {
      receive: () => new Promise((resolve) => setTimeout(() => resolve(Link.statusTemporaryError), 1_500)),
      receipt: () => Promise.resolve(0),
      notify: () => undefined
    })
    const part = (sequence: number, text: string) => inbound.handle({
      command: "deliver_sm",
      source_addr_ton: 1,
      source_addr: "447400123456",
      esm_class: 0x40,
      short_message: Buffer.concat([Buffer.from([0x05, 0x00, 0x03, 0x17, 2, sequence]), Buffer.from(text)])
    })
    expect(await Promise.all([part(1, "Hello "), part(2, "world")])).toEqual([Link.statusTemporaryError, Link.statusTemporaryError])
  })

  it("records a partial message with what arrived once its parts stop coming", async () => {
    const from = nextMsisdn()
    const statuses = await smsc.sendInbound(from, "SHOP", "abcdefghijkl", { parts: 3, order: [0, 2] })
    expect(statuses).toEqual([0, 0])
    // Answered when their hold ended; recorded once the reassembly timeout passed.
    expect(await recordedFrom(from)).toEqual(["abcdijkl"])
    expect(env.notices.some((notice) => notice._tag === "Inbound" && notice.from === from && !notice.complete && notice.missing.join() === "2")).toBe(true)
  })

  it("decodes data_coding 3 (Latin-1) and refuses an unknown one with a permanent error", async () => {
    const from = nextMsisdn()
    expect(await smsc.deliver({ source_addr: from, destination_addr: "SHOP", data_coding: 3, short_message: Buffer.from("Café ½", "latin1") })).toBe(0)
    expect((await inbound()).filter((message) => message.msisdn === from).map((message) => message.message)).toEqual(["Café ½"])
    expect(await smsc.deliver({ source_addr: from, destination_addr: "SHOP", data_coding: 4, short_message: Buffer.from([1, 2]) })).toBe(0x65)
    expect(env.notices.some((notice) => notice._tag === "InboundRefused" && notice.reason.includes("data_coding 4"))).toBe(true)
  })
})
