/**
 * The Kannel HTTP carrier end to end, as a user runs it: `smsbook serve` takes smsbox's callbacks,
 * `smsbook dispatch` sends through smsbox's sendsms → bearerbox → the test SMSC. Parts arrive once
 * each and reassemble, receipts come back through the dlr-url, and a STOP through the get-url.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Account, ContactBook, Messaging, PartQueue, Sms } from "@smsbook/core"
import * as PartStore from "@smsbook/store/PartStore"
import * as Store from "@smsbook/store/Store"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as KannelHarness from "./KannelHarness.ts"
import * as TestSmsc from "./TestSmsc.ts"

const bin = path.resolve(import.meta.dirname, "../../batch/src/bin.ts")
const shortName = "Shop"
const text = "Привет! Большая распродажа в эти выходные, скидки до 50% на всё — ждём вас"
const delivered = "447400100001"
const failing = "447400100002"
const stopper = "447400100003"

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))

/** `smsbook ARGS` to completion, without blocking this process (the test SMSC runs here); stdout as JSON. */
const cli = async (args: ReadonlyArray<string>, dir: string, env: NodeJS.ProcessEnv): Promise<unknown> => {
  const child = spawn(process.execPath, [bin, ...args], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  child.stdout?.on("data", (chunk: Buffer) => void (stdout += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
  const status = await exited(child)
  if (status !== 0) throw new Error(`smsbook ${args.join(" ")} exited ${status}: ${stderr}`)
  return JSON.parse(stdout)
}

describe.skipIf(!KannelHarness.runs)("the Kannel HTTP carrier: smsbook serve + dispatch → smsbox → bearerbox → test SMSC", () => {
  let dir = ""
  let smsc: TestSmsc.TestSmsc
  let kannel: KannelHarness.Kannel | undefined
  let server: ChildProcess | undefined
  let serverLog = ""
  let env: NodeJS.ProcessEnv = {}
  let servePort = 0
  let key = ""
  let store = ""

  const runtime = () =>
    ManagedRuntime.make(Layer.mergeAll(Store.layer(store), PartStore.layer(store), Account.layer({ ...Account.defaults, short_name: shortName })))

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-kannel-carrier-"))
    store = path.join(dir, "book.db")
    // The second number's handset is unreachable: its receipts say UNDELIV.
    smsc = await TestSmsc.start({ receipt: (part) => ({ stat: part.destination === failing ? "UNDELIV" : "DELIVRD", delayMs: 30, form: "text" }) })
    env = { ...process.env, SMSBOOK_STORE: store, SMSBOOK_SHORT_NAME: shortName, SMSBOOK_CARRIER: "" }
    const contacts = path.join(dir, "contacts.csv")
    fs.writeFileSync(contacts, `mobile,first name\n+${delivered},Ann\n+${failing},Bob\n+${stopper},Cy\n`)
    expect(await cli(["import", contacts, "--tags", "news", "--json"], dir, env)).toMatchObject({ created: 3, rejected: 0 })
    const created = await cli(["keys", "create", "--name", "kannel", "--json"], dir, env)
    key = typeof created === "object" && created !== null && "key" in created && typeof created.key === "string" ? created.key : ""
    expect(key).toMatch(/^smsbook_/)
    servePort = await KannelHarness.freePort()
    kannel = await KannelHarness.start({
      dir,
      smscPort: smsc.port,
      getUrl: `http://127.0.0.1:${servePort}/kannel/mo?key=${key}&from=%p&text=%b&coding=%c&charset=%C`,
      isBound: () => smsc.binds() > 0,
      // As the README sets smsbox: callbacks answered 503 (a part not known yet) are asked again.
      smsbox: "http-request-retry = 60\nhttp-queue-delay = 1"
    })
    server = spawn(process.execPath, [bin, "serve", "--port", String(servePort)], { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] })
    server.stderr?.on("data", (chunk: Buffer) => void (serverLog += chunk.toString()))
    await KannelHarness.waitFor(async () => (await fetch(`http://127.0.0.1:${servePort}/health`).catch(() => undefined))?.ok === true, () => `smsbook serve (${serverLog})`)
  }, 90_000)

  afterAll(async () => {
    await KannelHarness.stop(server)
    if (process.env["KANNEL_TEST_LOG"] === "1") console.log(serverLog)
    await kannel?.stop()
    await smsc?.close()
    if (dir !== "") fs.rmSync(dir, { recursive: true, force: true })
  })

  it("a STOP from a handset reaches smsbook through the get-url and opts the contact out; a multipart UCS-2 reply is recorded whole", async () => {
    expect(await smsc.sendInbound(stopper, "SHOP", "STOP")).toEqual([0])
    const reply = "Спасибо, получил! Жду следующую рассылку с нетерпением, до встречи в магазине 👍"
    expect(await smsc.sendInbound(delivered, "SHOP", reply, { parts: 2, order: [1, 0], ucs2: true, reference: 7 })).toEqual([0, 0])
    const book = runtime()
    try {
      await KannelHarness.waitFor(async () => (await book.runPromise(ContactBook.getContact(stopper))).status === "CANCELLED", () => `the STOP (${serverLog})`)
      await KannelHarness.waitFor(async () => {
        const inbound = await book.runPromise(Messaging.listMessages({ direction: "MO" }))
        return inbound.some((message) => message.msisdn === delivered && message.message === reply)
      }, () => `the multipart reply (${serverLog})`)
      expect((await book.runPromise(ContactBook.getContact(delivered))).status).toBe("SUBSCRIBED")
    } finally {
      await book.dispose()
    }
  })

  it("a 2-part UCS-2 broadcast arrives once per part and reassembles; receipts through the dlr-url set the part states and error_count", async () => {
    const segments = Sms.analyzePrefixed(shortName, text).segments
    expect(segments).toBe(2)
    expect(await cli(["broadcast", "--tags", "news", "--message", text, "--json"], dir, env)).toMatchObject({ recipients: 2, segments, sent_count: 4 })
    const carrier = `kannel://${kannel?.username}:${kannel?.password}@127.0.0.1:${kannel?.sendsmsPort}?callback=http://127.0.0.1:${servePort}&key=${key}&window=4`
    const summary = await cli(["dispatch", "--once", "--json", "--receipt-wait", "30"], dir, { ...env, SMSBOOK_CARRIER: carrier })
    expect(summary).toMatchObject({ submitted: 4, refused: 0, cancelled: 0 })
    // The secrets of the carrier URL never reach the output.
    expect(JSON.stringify(summary)).not.toContain(key)

    const keys = smsc.accepted.map((part) => `${part.destination}/${part.concatenation?.sequence}/${part.concatenation?.total}`)
    expect(keys.toSorted()).toEqual([`${delivered}/1/2`, `${delivered}/2/2`, `${failing}/1/2`, `${failing}/2/2`])
    expect(smsc.accepted.map((part) => part.dataCoding)).toEqual([8, 8, 8, 8])
    const wholes = smsc.reassembled()
    expect(wholes.map((whole) => [whole.destination, whole.parts, whole.text]).toSorted()).toEqual([
      [delivered, 2, Sms.prefix(shortName, text)],
      [failing, 2, Sms.prefix(shortName, text)]
    ])

    const book = runtime()
    try {
      const [message] = await book.runPromise(Messaging.listMessages({ direction: "MT" }))
      if (message?.message_id === undefined) throw new Error("the broadcast was not recorded")
      const states = await book.runPromise(Effect.flatMap(Effect.service(PartQueue.PartQueue), (queue) => queue.states(message.message_id ?? "")))
      expect(states.map((part) => [part.msisdn, part.part, part.state]).toSorted()).toEqual([
        [delivered, 1, "delivered"], [delivered, 2, "delivered"], [failing, 1, "undeliverable"], [failing, 2, "undeliverable"]
      ])
      // sent_count = the parts the SMSC received; error_count = its failed receipts.
      expect([message.sent_count, message.error_count]).toEqual([smsc.accepted.length, 2])
    } finally {
      await book.dispose()
    }
  }, 90_000)

  it("a 2-part GSM-7 message with extension characters goes as coding 0 text with its UDH and reassembles as core cut it", async () => {
    const gsm = "Sale {today}: 20% off [all] shoes, €5 off bags ~ ^ | \\ at the main store and online, this weekend only. Reply {STOP} [to] opt out of these €€ messages!"
    const analysis = Sms.analyzePrefixed(shortName, gsm)
    expect([analysis.encoding, analysis.segments]).toEqual(["GSM-7", 2])
    const before = smsc.accepted.length
    const sent = await cli(["send", "--to", delivered, "--message", gsm, "--json"], dir, env)
    expect(sent).toMatchObject({ sent_count: 2 })
    const carrier = `kannel://${kannel?.username}:${kannel?.password}@127.0.0.1:${kannel?.sendsmsPort}?callback=http://127.0.0.1:${servePort}&key=${key}`
    expect(await cli(["dispatch", "--once", "--json", "--receipt-wait", "30"], dir, { ...env, SMSBOOK_CARRIER: carrier })).toMatchObject({ submitted: 2 })
    const parts = smsc.accepted.slice(before)
    expect(parts.map((part) => [part.destination, part.dataCoding, part.concatenation?.sequence, part.text]))
      .toEqual(analysis.parts.map((text, index) => [delivered, 0, index + 1, text]))
    expect(smsc.reassembled().some((whole) => whole.destination === delivered && whole.text === Sms.prefix(shortName, gsm))).toBe(true)
  }, 90_000)

  it("a dispatcher killed (-9) mid-run and started again: every part reaches the SMSC once, and every report finds its part", async () => {
    const recipients = 25
    const numberOf = (i: number) => `4474002${String(i).padStart(5, "0")}`
    const contacts = path.join(dir, "flash.csv")
    fs.writeFileSync(contacts, ["mobile", ...Array.from({ length: recipients }, (_, i) => `+${numberOf(i)}`)].join("\n") + "\n")
    expect(await cli(["import", contacts, "--tags", "flash", "--json"], dir, env)).toMatchObject({ created: recipients })
    const flash = `${text} Только сегодня!`
    expect(await cli(["broadcast", "--tags", "flash", "--message", flash, "--json"], dir, env)).toMatchObject({ recipients, segments: 2, sent_count: 2 * recipients })
    const carrier = `kannel://${kannel?.username}:${kannel?.password}@127.0.0.1:${kannel?.sendsmsPort}?callback=http://127.0.0.1:${servePort}&key=${key}&tps=20&window=4`
    const before = smsc.accepted.length
    const first = spawn(process.execPath, [bin, "dispatch"], { cwd: dir, env: { ...env, SMSBOOK_CARRIER: carrier }, stdio: "ignore" })
    try {
      await KannelHarness.waitFor(() => smsc.accepted.length - before >= 15, "the first parts at the SMSC", 30_000)
    } finally {
      const gone = exited(first)
      first.kill("SIGKILL")
      await gone
    }
    const sentBeforeKill = smsc.accepted.length - before
    expect(sentBeforeKill).toBeLessThan(2 * recipients)
    expect(await cli(["dispatch", "--once", "--json", "--receipt-wait", "30"], dir, { ...env, SMSBOOK_CARRIER: carrier })).toMatchObject({ refused: 0 })

    const keys = smsc.accepted.slice(before).map((part) => `${part.destination}/${part.concatenation?.sequence}`)
    const expected = Array.from({ length: recipients }, (_, i) => [`${numberOf(i)}/1`, `${numberOf(i)}/2`]).flat()
    expect({ twice: keys.filter((one, index) => keys.indexOf(one) !== index), missing: expected.filter((one) => !keys.includes(one)), sentBeforeKill })
      .toEqual({ twice: [], missing: [], sentBeforeKill })
    const book = runtime()
    try {
      const message = (await book.runPromise(Messaging.listMessages({ direction: "MT", group_short_name: "flash" })))[0]
      if (message?.message_id === undefined) throw new Error("the broadcast was not recorded")
      const states = await book.runPromise(Effect.flatMap(Effect.service(PartQueue.PartQueue), (queue) => queue.states(message.message_id ?? "")))
      expect(states.filter((part) => part.state !== "delivered")).toEqual([])
      expect([states.length, message.sent_count, message.error_count]).toEqual([2 * recipients, 2 * recipients, 0])
    } finally {
      await book.dispose()
    }
  }, 120_000)
})
