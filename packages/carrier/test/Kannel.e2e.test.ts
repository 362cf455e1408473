/**
 * Interop with an independent SMPP implementation: Kannel's bearerbox binds to the test SMSC as a
 * transceiver; what Kannel submits reassembles there, and the SMSC's receipts and inbound
 * (multipart) deliver_sm reach Kannel's smsbox and its HTTP callbacks. Needs Debian's `kannel`
 * (`.ci/run` installs it); without it the suite fails under CI=true and is skipped elsewhere.
 */
import * as fs from "node:fs"
import { createServer, type Server } from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as KannelHarness from "./KannelHarness.ts"
import * as TestSmsc from "./TestSmsc.ts"

const { waitFor } = KannelHarness

describe.skipIf(!KannelHarness.runs)("Kannel bearerbox over SMPP to the test SMSC", () => {
  let dir = ""
  let smsc: TestSmsc.TestSmsc
  let callbacks: Server
  let kannel: KannelHarness.Kannel | undefined
  let sendsmsPort = 0
  let callbackPort = 0
  const seen: Array<URLSearchParams> = []
  /** Inbound texts as smsbox passed them: UCS-2 (`coding=2`) as raw UTF-16BE octets in the query. */
  const inbound: Array<{ readonly from: string; readonly text: string }> = []

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-kannel-"))
    smsc = await TestSmsc.start({ receipt: () => ({ stat: "DELIVRD", delayMs: 50, form: "text" }) })
    callbacks = createServer((request, response) => {
      const url = request.url ?? "/"
      const query = new URL(url, "http://127.0.0.1").searchParams
      seen.push(query)
      const raw = /[?&]text=([^&]*)/.exec(url)?.[1]
      if (url.startsWith("/mo") && raw !== undefined) {
        const octets = Buffer.from(raw.replace(/\+/g, "%20").replace(/%([0-9a-f]{2})|([^%])/gi, (_, hex: string | undefined, char: string | undefined) =>
          hex === undefined ? (char ?? "").charCodeAt(0).toString(16).padStart(2, "0") : hex), "hex")
        inbound.push({ from: query.get("from") ?? "", text: query.get("coding") === "2" ? new TextDecoder("utf-16be").decode(octets) : octets.toString("utf8") })
      }
      response.end("")
    })
    await new Promise<void>((resolve) => callbacks.listen(0, "127.0.0.1", resolve))
    const address = callbacks.address()
    callbackPort = typeof address === "object" && address !== null ? address.port : 0
    kannel = await KannelHarness.start({
      dir,
      smscPort: smsc.port,
      getUrl: `http://127.0.0.1:${callbackPort}/mo?from=%p&text=%a&coding=%c`,
      isBound: () => smsc.binds() > 0
    })
    sendsmsPort = kannel.sendsmsPort
  }, 60_000)

  afterAll(async () => {
    await kannel?.stop()
    await smsc?.close()
    await new Promise((resolve) => callbacks?.close(resolve))
    if (dir !== "") fs.rmSync(dir, { recursive: true, force: true })
  })

  it("a long UCS-2 text Kannel submits reassembles at the test SMSC, and its DELIVRD receipt reaches the dlr-url", async () => {
    const text = "Привет! Это длинное сообщение из нескольких частей, проверка сборки на стороне SMSC 😀 конец"
    const url = new URL(`http://127.0.0.1:${sendsmsPort}/cgi-bin/sendsms`)
    url.search = new URLSearchParams({
      username: "smsbook",
      password: "secret",
      from: "SHOP",
      to: "447400000001",
      text,
      charset: "UTF-8",
      coding: "2",
      "dlr-mask": "3",
      "dlr-url": `http://127.0.0.1:${callbackPort}/dlr?type=%d&to=%p`
    }).toString()
    const answer = await fetch(url)
    expect(answer.status).toBeLessThan(300)
    await waitFor(() => smsc.reassembled().some((whole) => whole.destination === "447400000001" && whole.text === text), "the reassembled text at the SMSC")
    const parts = smsc.accepted.filter((part) => part.destination === "447400000001")
    expect(parts.length).toBeGreaterThan(1)
    expect(parts.every((part) => part.dataCoding === 8 && part.concatenation !== undefined)).toBe(true)
    await waitFor(() => seen.some((query) => query.get("type") === "1" && query.get("to")?.endsWith("447400000001") === true), "a DELIVRD dlr callback")
  })

  it("an inbound multipart UCS-2 SMS sent out of order reaches smsbox's get-url whole", async () => {
    const text = "Ответ абонента из двух частей, пришедших не по порядку 👍 спасибо"
    const statuses = await smsc.sendInbound("447400000002", "SHOP", text, { parts: 2, order: [1, 0], ucs2: true, reference: 42 })
    expect(statuses).toEqual([0, 0])
    await waitFor(() => inbound.some((message) => message.from.endsWith("447400000002") && message.text === text), () => `the inbound text at get-url (seen: ${JSON.stringify(inbound)})`)
  })
})
