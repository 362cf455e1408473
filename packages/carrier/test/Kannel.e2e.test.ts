/**
 * Interop with an independent SMPP implementation: Kannel's bearerbox binds to the test SMSC as a
 * transceiver; what Kannel submits reassembles there, and the SMSC's receipts and inbound
 * (multipart) deliver_sm reach Kannel's smsbox and its HTTP callbacks. Needs Debian's `kannel`
 * (`.ci/run` installs it); without it the suite fails under CI=true and is skipped elsewhere.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import { createServer, type Server } from "node:http"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as TestSmsc from "./TestSmsc.ts"

const binary = (name: string): string | undefined => {
  for (const dir of ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"]) {
    const file = path.join(dir, name)
    if (fs.existsSync(file)) return file
  }
  return undefined
}
const bearerbox = binary("bearerbox")
const smsbox = binary("smsbox")
const installed = bearerbox !== undefined && smsbox !== undefined
const inCi = process.env["CI"] === "true"
if (!installed && !inCi) console.warn("Kannel interop tests skipped: install Debian's kannel (apt-get install -y kannel)")

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port })
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })

const waitFor = async (check: () => boolean | Promise<boolean>, what: string | (() => string), ms = 20_000) => {
  const until = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${typeof what === "string" ? what : what()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const stop = async (child: ChildProcess | undefined) => {
  if (child?.pid === undefined || child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once("exit", resolve))
  process.kill(child.pid, "SIGTERM")
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))])
  if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, "SIGKILL")
}

describe.skipIf(!installed && !inCi)("Kannel bearerbox over SMPP to the test SMSC", () => {
  let dir = ""
  let smsc: TestSmsc.TestSmsc
  let callbacks: Server
  let bearer: ChildProcess | undefined
  let box: ChildProcess | undefined
  let sendsmsPort = 0
  let callbackPort = 0
  const seen: Array<URLSearchParams> = []
  /** Inbound texts as smsbox passed them: UCS-2 (`coding=2`) as raw UTF-16BE octets in the query. */
  const inbound: Array<{ readonly from: string; readonly text: string }> = []

  beforeAll(async () => {
    if (!installed) throw new Error("CI=true but Kannel is not installed: .ci/run must apt-get install -y kannel (bearerbox, smsbox)")
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
    const [adminPort, boxPort, sendPort] = [await freePort(), await freePort(), await freePort()]
    sendsmsPort = sendPort
    const config = path.join(dir, "kannel.conf")
    fs.writeFileSync(config, `
group = core
admin-port = ${adminPort}
admin-interface = 127.0.0.1
admin-password = smsbook
admin-allow-ip = "127.0.0.1"
smsbox-port = ${boxPort}
smsbox-interface = 127.0.0.1
box-allow-ip = "127.0.0.1"
log-file = "${path.join(dir, "bearerbox.log")}"
log-level = 1
dlr-storage = internal

group = smsc
smsc = smpp
smsc-id = testsmsc
host = 127.0.0.1
port = ${smsc.port}
transceiver-mode = true
smsc-username = kannel
smsc-password = secret
system-type = smsbook
source-addr-ton = 5
source-addr-npi = 0
dest-addr-ton = 1
dest-addr-npi = 1
msg-id-type = 0x00
enquire-link-interval = 30
reconnect-delay = 1

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = ${boxPort}
sendsms-port = ${sendPort}
sendsms-interface = 127.0.0.1
log-file = "${path.join(dir, "smsbox.log")}"
log-level = 1

group = sendsms-user
username = smsbook
password = secret
concatenation = true
max-messages = 5

group = sms-service
keyword = default
get-url = "http://127.0.0.1:${callbackPort}/mo?from=%p&text=%a&coding=%c"
max-messages = 0
catch-all = true
`)
    bearer = spawn(bearerbox ?? "bearerbox", [config], { cwd: dir, stdio: "ignore" })
    await waitFor(() => accepts(boxPort), "bearerbox's box port")
    box = spawn(smsbox ?? "smsbox", [config], { cwd: dir, stdio: "ignore" })
    await waitFor(() => accepts(sendPort), "smsbox's sendsms port")
    await waitFor(() => smsc.binds() > 0, "Kannel's bind")
  }, 60_000)

  afterAll(async () => {
    await stop(box)
    await stop(bearer)
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
