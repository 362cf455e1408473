/**
 * `smsbook dispatch` as a user runs it, against the test SMSC: a 2-part UCS-2 broadcast drained
 * through throttling, a dropped link and 3 % failed receipts, with a STOP from a handset, and the
 * dispatcher killed (-9) at random moments and restarted: every part reaches the SMSC exactly once.
 * Just over 400 lines: every case runs real `smsbook` processes against the one test SMSC helper below.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Account, ContactBook, Messaging, PartQueue, Sms } from "@smsbook/core"
import { PartStore, Store } from "@smsbook/store"
import { PostgresSchema } from "@smsbook/testing"
import { Effect, Layer, ManagedRuntime } from "effect"
import { describe, expect, it } from "vitest"
import * as TestSmsc from "../../../carrier/test/TestSmsc.ts"

const bin = path.resolve(import.meta.dirname, "../../src/bin.ts")
const shortName = "Shop"
const text = "Привет! Большая распродажа в эти выходные, скидки до 50% на всё — ждём вас"
const postgresUrl = process.env["SMSBOOK_TEST_POSTGRES_URL"] ?? ""

const msisdnOf = (i: number) => `4474009${String(i).padStart(5, "0")}`

const runtimeOf = (store: string) =>
  ManagedRuntime.make(Layer.mergeAll(Store.layer(store), PartStore.layer(store), Account.layer({ ...Account.defaults, short_name: shortName })))

/** `smsbook ARGS` to completion; its stdout read as JSON. */
const cli = (args: ReadonlyArray<string>, dir: string, env: NodeJS.ProcessEnv): unknown => {
  const run = spawnSync(process.execPath, [bin, ...args], { cwd: dir, env, encoding: "utf8", timeout: 60_000 })
  if (run.status !== 0) throw new Error(`smsbook ${args.join(" ")} exited ${run.status}: ${run.stderr}`)
  return JSON.parse(run.stdout)
}

/** The book as a user makes it: contacts imported from a CSV file, then a broadcast to their tag. */
const prepare = (dir: string, env: NodeJS.ProcessEnv, recipients: number) => {
  const file = path.join(dir, "contacts.csv")
  fs.writeFileSync(file, ["mobile,first name", ...Array.from({ length: recipients }, (_, i) => `+${msisdnOf(i)},A${i}`)].join("\n") + "\n")
  expect(cli(["import", file, "--tags", "news", "--json"], dir, env)).toMatchObject({ created: recipients, rejected: 0 })
  return cli(["broadcast", "--tags", "news", "--message", text, "--json"], dir, env)
}

const listMessages = async (store: string) => {
  const runtime = runtimeOf(store)
  try {
    return await runtime.runPromise(Messaging.listMessages({ direction: "MT" }))
  } finally {
    await runtime.dispose()
  }
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))

/** A SQLite book in `dir` with one contact and one part queued for it: the environment that names them. */
const oneQueuedPart = (dir: string): NodeJS.ProcessEnv => {
  const env = { ...process.env, SMSBOOK_STORE: `sqlite:${path.join(dir, "book.db")}`, SMSBOOK_SHORT_NAME: shortName }
  const file = path.join(dir, "contacts.csv")
  fs.writeFileSync(file, `mobile\n+${msisdnOf(0)}\n`)
  expect(cli(["import", file, "--json"], dir, env)).toMatchObject({ created: 1 })
  expect(cli(["send", "--to", msisdnOf(0), "--message", "hello", "--json"], dir, env)).toMatchObject({ sent_count: 1 })
  return env
}

/**
 * `dispatch --once --json` under `env`, killed after 20 s so that a dispatcher that hangs ends the test (which then
 * fails): its exit code, how long it ran, its one document's error, and stderr.
 */
const dispatchOnce = async (dir: string, env: NodeJS.ProcessEnv, children: Array<ChildProcess>) => {
  const child = spawn(process.execPath, [bin, "dispatch", "--once", "--json"], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] })
  children.push(child)
  let stdout = ""
  let stderr = ""
  child.stdout?.on("data", (chunk: Buffer) => void (stdout += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
  const started = Date.now()
  const guard = setTimeout(() => child.kill("SIGKILL"), 20_000)
  const status = await exited(child)
  clearTimeout(guard)
  const document = stdout === "" ? undefined : JSON.parse(stdout) as { error?: { code: string; message: string; exit_code: number; field?: string } }
  return { status, ms: Date.now() - started, error: document?.error, stdout, stderr }
}

/**
 * What a `dispatch --once` whose carrier is not there must end with: within the test's bound, exit 1 and one
 * CARRIER_FAILURE document saying `why`; each failed attempt said on stderr as it happened; the password (and Kannel's
 * key, whose value holds "secret" too) never shown.
 */
const expectUnreachable = (ran: Awaited<ReturnType<typeof dispatchOnce>>, why: string) => {
  expect(ran.ms, ran.stderr).toBeLessThan(20_000)
  expect(ran.status, ran.stderr).toBe(1)
  expect(ran.error).toMatchObject({ code: "CARRIER_FAILURE", exit_code: 1 })
  expect(ran.error?.message).toContain(`the link to the carrier failed: ${why}`)
  expect(ran.stderr).toMatch(/^dispatch: \{"_tag":"Link","event":\{"_tag":"Disconnected"/m)
  expect(ran.stdout + ran.stderr).not.toContain("secret")
}

/** Kills (-9) the processes still running, and waits for them. */
const stopAll = async (children: ReadonlyArray<ChildProcess>) => {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue
    const done = exited(child)
    child.kill("SIGKILL")
    await done
  }
}

const until = async (check: () => boolean, ms: number) => {
  const end = Date.now() + ms
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 5))
  return check()
}

/**
 * The scenario on the store at `store`: `trials` dispatchers killed at random moments (some before
 * their bind, most mid-window), then one `--once` run. The SMSC takes or drops what it read but had
 * not answered when a dispatcher died, alternately, so both kinds of part in doubt occur.
 */
const scenario = async (store: string, trials: number) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-dispatch-"))
  let closes = 0
  const smsc = await TestSmsc.start({
    throttleEvery: 97,
    dropAtSubmit: [150],
    // Answers take 25 ms, so about a window of parts is unanswered on the wire when a dispatcher dies.
    respondDelayMs: 25,
    acceptOnClose: () => closes++ % 2 === 0,
    // 3 % of the parts fail, spread over the run.
    receipt: (_part, index) => ({ stat: Math.floor((index + 1) * 3 / 100) > Math.floor(index * 3 / 100) ? "UNDELIV" : "DELIVRD", delayMs: 5 + (index % 5) * 10 })
  })
  const log: Array<string> = []
  // Every process started here: none outlives the test (a dispatcher keeps rebinding to a closed SMSC).
  const children: Array<ChildProcess> = []
  // The dispatchers' warnings: what each found left by the one killed before it.
  let warnings = ""
  try {
    const recipients = 300
    const env = {
      ...process.env,
      SMSBOOK_STORE: store,
      SMSBOOK_SHORT_NAME: shortName,
      // A tps limit stretches the run over the trials.
      SMSBOOK_CARRIER: `smpp://smsbook:secret@127.0.0.1:${smsc.port}?window=10&tps=200`
    }
    const segments = Sms.analyzePrefixed(shortName, text).segments
    expect(segments).toBe(2)
    const parts = segments * recipients
    expect(prepare(dir, env, recipients)).toMatchObject({ recipients, segments, sent_count: parts })
    const [message] = await listMessages(store)
    if (message === undefined) throw new Error("the broadcast was not recorded")
    const stopper = msisdnOf(recipients - 1)
    for (let trial = 0; trial < trials; trial++) {
      const binds = smsc.binds()
      const child = spawn(process.execPath, [bin, "dispatch", "--doubt-wait", "2"], { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] })
      children.push(child)
      child.stderr?.on("data", (chunk: Buffer) => void (warnings += chunk.toString()))
      const done = exited(child)
      const boundNow = await until(() => smsc.binds() > binds, 30_000)
      expect(boundNow, `trial ${trial}: the dispatcher bound`).toBe(true)
      // The handset of the last recipient (whose parts go out last) sends STOP during the first run.
      if (trial === 0) expect(await smsc.sendInbound(stopper, "SHOP", "STOP")).toEqual([0])
      // Random moments: right at the bind, or up to 0.7 s into the window.
      const delay = trial === 1 ? 0 : Math.floor(Math.random() * 700)
      await new Promise((resolve) => setTimeout(resolve, delay))
      const before = smsc.accepted.length
      child.kill("SIGKILL")
      await done
      log.push(`trial ${trial}: killed ${delay} ms after the bind with ${before} parts accepted, ${smsc.unanswered.length} dropped unanswered so far`)
    }
    expect(smsc.accepted.length, log.join("\n")).toBeLessThan(parts)

    // Not spawnSync: the test SMSC runs in this process and must keep answering.
    const last = spawn(process.execPath, [bin, "dispatch", "--once", "--json", "--doubt-wait", "2", "--receipt-wait", "15"], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] })
    children.push(last)
    let stdout = ""
    let stderr = ""
    last.stdout?.on("data", (chunk: Buffer) => void (stdout += chunk.toString()))
    last.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
    const status = await exited(last)
    warnings += stderr
    const total = (field: "inDoubt" | "requeued" | "parts", tag: string) =>
      [...warnings.matchAll(/^dispatch: (\{.*\})$/gm)].map((match) => JSON.parse(match[1] ?? "{}"))
        .filter((notice) => notice._tag === tag).reduce((sum, notice) => sum + Number(notice[field] ?? 0), 0)
    log.push(`found in doubt ${total("inDoubt", "Recovered")}, queued again ${total("requeued", "Recovered")}, resent ${total("parts", "Resent")}`)
    log.push(`last run: ${stdout}`, stderr.slice(0, 4000))
    expect(status, log.join("\n")).toBe(0)
    const summary: { submitted: number; cancelled: number } = JSON.parse(stdout)
    if (process.env["DISPATCH_TEST_LOG"] === "1") console.log(log.join("\n"))

    // Exactly once: each (number, part) of every recipient but the one who said STOP, none twice.
    const keys = smsc.accepted.map((part) => `${part.destination}/${part.concatenation?.sequence}`)
    const expected = Array.from({ length: recipients - 1 }, (_, i) => [`${msisdnOf(i)}/1`, `${msisdnOf(i)}/2`]).flat()
    const twice = keys.filter((key, index) => keys.indexOf(key) !== index)
    const missing = expected.filter((key) => !keys.includes(key))
    expect({ twice, missing, count: keys.length }, log.join("\n")).toEqual({ twice: [], missing: [], count: expected.length })
    const wholes = smsc.reassembled()
    expect(wholes.length).toBe(recipients - 1)
    expect(wholes.every((whole) => whole.parts === 2 && whole.text === Sms.prefix(shortName, text))).toBe(true)
    expect(summary.cancelled).toBe(2)
    // The kills left parts on the wire unanswered (settled by receipts or resent) and parts claimed, never written.
    expect([total("inDoubt", "Recovered") > 0, total("requeued", "Recovered") > 0], log.join("\n")).toEqual([true, true])

    const runtime = runtimeOf(store)
    try {
      const stopped = await runtime.runPromise(ContactBook.getContact(stopper))
      expect(stopped.status).toBe("CANCELLED")
      const states = await runtime.runPromise(Effect.flatMap(Effect.service(PartQueue.PartQueue), (queue) => queue.states(message.message_id ?? "")))
      const count = (state: PartQueue.State) => states.filter((part) => part.state === state).length
      const failed = [...smsc.receipts.values()].filter((stat) => stat === "UNDELIV").length
      expect(failed).toBeGreaterThan(0)
      expect([count("delivered"), count("undeliverable"), count("cancelled")], log.join("\n")).toEqual([parts - 2 - failed, failed, 2])
      const [stored] = await runtime.runPromise(Messaging.listMessages({ direction: "MT" }))
      // sent_count = the parts the SMSC received; error_count = its failed receipts.
      expect([stored?.sent_count, stored?.error_count]).toEqual([smsc.accepted.length, failed])
      // A later message does not go to the number that said STOP.
      const next = await runtime.runPromise(Messaging.broadcast({ tags: ["news"], message: "Last call!" }, { allowEmpty: false }))
      expect(next.message.total_recipients).toBe(recipients - 1)
    } finally {
      await runtime.dispose()
    }
    const before = smsc.accepted.length
    const again = spawn(process.execPath, [bin, "dispatch", "--once", "--json", "--receipt-wait", "5"], { cwd: dir, env, stdio: "ignore" })
    children.push(again)
    expect(await exited(again)).toBe(0)
    const later = smsc.accepted.slice(before)
    expect([later.length, later.some((part) => part.destination === stopper)]).toEqual([recipients - 1, false])
  } finally {
    await stopAll(children)
    await smsc.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** A fresh schema of the test PostgreSQL database for `run`, dropped after. */
const withSchema = async (run: (url: string) => Promise<void>) => {
  const schema = await PostgresSchema.make(postgresUrl, "dispatch")
  try {
    await run(schema.url)
  } finally {
    await schema.drop()
  }
}

describe("smsbook dispatch", () => {
  it("SQLite: kill -9 at random moments and restarts: every part reaches the SMSC exactly once, a STOP cancels the parts not yet sent, counts follow the receipts", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-dispatch-book-"))
    try {
      await scenario(`sqlite:${path.join(dir, "book.db")}`, 5)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)

  it("runs beside smsbook serve on one SQLite book: what the server accepts goes out, a STOP by SMS from a number written nationally (--default-country) shows through the server and keeps the next group send from that number", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-dispatch-serve-"))
    const smsc = await TestSmsc.start({ receipt: () => ({ stat: "DELIVRD", delayMs: 5 }) })
    const children: Array<ChildProcess> = []
    try {
      const env = {
        ...process.env,
        SMSBOOK_STORE: `sqlite:${path.join(dir, "book.db")}`,
        SMSBOOK_SHORT_NAME: shortName,
        SMSBOOK_CARRIER: `smpp://smsbook:secret@127.0.0.1:${smsc.port}`
      }
      const [kept, stopping] = [msisdnOf(0), msisdnOf(1)]
      const file = path.join(dir, "contacts.csv")
      fs.writeFileSync(file, `mobile\n+${kept}\n+${stopping}\n`)
      expect(cli(["import", file, "--tags", "news", "--json"], dir, env)).toMatchObject({ created: 2 })
      const server = spawn(process.execPath, [bin, "serve", "--port", "0", "--no-auth", "--json"], { cwd: dir, env, stdio: ["ignore", "pipe", "ignore"] })
      const dispatcher = spawn(process.execPath, [bin, "dispatch", "--default-country", "GB"], { cwd: dir, env, stdio: "ignore" })
      children.push(server, dispatcher)
      const url: string = await new Promise((resolve, reject) => {
        server.stdout?.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString()).url))
        server.once("exit", (code) => reject(new Error(`serve exited ${code}`)))
      })
      const post = (route: string, body: unknown) =>
        fetch(`${url}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
      expect((await post("/messages/send_to_contact", { msisdn: kept, message: "hello" })).ok).toBe(true)
      expect(await until(() => smsc.accepted.length === 1, 30_000)).toBe(true)
      expect(smsc.accepted.map((part) => [part.destination, part.text])).toEqual([[kept, `${shortName}: hello`]])

      // As an SMSC hands its own network's handsets over: national (TON 2), read in the dispatcher's default country.
      const national = { source_addr_ton: 2, source_addr: `0${stopping.slice(2)}`, destination_addr: "SHOP" }
      expect(await smsc.deliver({ ...national, short_message: Buffer.from("STOP") })).toBe(0)
      const contact = await (await fetch(`${url}/contacts/${stopping}`)).json()
      expect(contact).toMatchObject({ msisdn: stopping, status: "CANCELLED" })
      expect((await post("/messages/send", { tags: ["news"], message: "news" })).ok).toBe(true)
      expect(await until(() => smsc.accepted.length === 2, 30_000)).toBe(true)
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(smsc.accepted.slice(1).map((part) => [part.destination, part.text])).toEqual([[kept, `${shortName}: news`]])
      const messages = await (await fetch(`${url}/messages`)).json() as Array<{ readonly type: number; readonly status: string; readonly sent_count: number }>
      const group = messages.find((message) => message.type === 2)
      expect([group?.status, group?.sent_count]).toEqual(["SENT", 1])
    } finally {
      await stopAll(children)
      await smsc.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)

  it("refuses an SMPP sender no SMSC takes before it binds (exit 2, naming where it was said): an alphanumeric one over 11 characters, an international one over 15 digits", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-dispatch-sender-"))
    const children: Array<ChildProcess> = []
    try {
      const base = oneQueuedPart(dir)
      // Nothing listens: a dispatch that tried to bind would fail CARRIER_FAILURE instead.
      const carrier = `smpp://smsbook:secret@127.0.0.1:${await TestSmsc.closedPort()}?connect_timeout_ms=500`
      for (const shortCode of ["Shop and Sons", "+4474000000011234", "Café"]) {
        const field = "SMSBOOK_SHORT_CODE"
        const ran = await dispatchOnce(dir, { ...base, SMSBOOK_CARRIER: carrier, SMSBOOK_SHORT_CODE: shortCode }, children)
        expect(ran.status, ran.stderr).toBe(2)
        expect(ran.error).toMatchObject({ code: "INVALID_FIELD", exit_code: 2, field })
        expect(ran.error?.message).toContain(JSON.stringify(shortCode))
      }
      // Over Kannel, smsbox writes the PDUs from its own settings: nothing is refused here (it fails reaching smsbox).
      const kannel = await dispatchOnce(dir, {
        ...base,
        SMSBOOK_CARRIER: `kannel://smsbook:secret@127.0.0.1:${await TestSmsc.closedPort()}?callback=http://127.0.0.1:1/kannel&connect_timeout_ms=500`,
        SMSBOOK_SHORT_CODE: "Shop and Sons"
      }, children)
      expect(kannel.error).toMatchObject({ code: "CARRIER_FAILURE" })
    } finally {
      await stopAll(children)
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it("--once against an SMSC that is not there (nothing on the port, or no answer to the bind) fails in bounded time: exit 1, CARRIER_FAILURE naming the address and what to check", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-dispatch-unreachable-"))
    const silent = await TestSmsc.silentServer()
    const children: Array<ChildProcess> = []
    try {
      const base = oneQueuedPart(dir)
      const closed = await TestSmsc.closedPort()
      for (
        const [port, why] of [
          [closed, `connection refused: nothing listens on 127.0.0.1:${closed}; check the host and port`],
          [silent.port, `127.0.0.1:${silent.port} took the connection but did not answer bind_transceiver within 0.5 s; check that`]
        ] as const
      ) {
        const env = { ...base, SMSBOOK_CARRIER: `smpp://smsbook:secret@127.0.0.1:${port}?connect_timeout_ms=500` }
        expectUnreachable(await dispatchOnce(dir, env, children), `no bind to the SMSC as smsbook after 0.5 s: ${why}`)
      }
    } finally {
      await stopAll(children)
      await silent.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it("--once with a kannel:// carrier whose smsbox is not there (nothing on the port, or no answer to the request) fails in bounded time: exit 1, CARRIER_FAILURE naming the address and what to check", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-dispatch-kannel-unreachable-"))
    const silent = await TestSmsc.silentServer()
    const children: Array<ChildProcess> = []
    try {
      const base = oneQueuedPart(dir)
      const closed = await TestSmsc.closedPort()
      // The part stays queued after each: it is never sent, not even into the silence (only the link's probe is).
      for (
        const [port, why] of [
          [closed, `connection refused: nothing listens on 127.0.0.1:${closed}; check the host and port of the carrier URL (smsbox's sendsms-port), and that smsbox is running`],
          [silent.port, `127.0.0.1:${silent.port} took the connection but did not answer (no answer within 0.5 s); check that the carrier URL's port is smsbox's sendsms-port`]
        ] as const
      ) {
        const carrier = `kannel://smsbook:secret@127.0.0.1:${port}?callback=http://127.0.0.1:9&key=smsbook_secretkey&connect_timeout_ms=500&response_timeout_ms=300`
        expectUnreachable(await dispatchOnce(dir, { ...base, SMSBOOK_CARRIER: carrier }, children), `no answer from smsbox to the sendsms-user smsbook since the run began: ${why}`)
      }
      // The probe alone: no message, no credentials.
      expect(silent.received().match(/^GET \S+/gm)).toEqual(["GET /cgi-bin/sendsms"])
    } finally {
      await stopAll(children)
      await silent.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it.skipIf(postgresUrl === "")("PostgreSQL: kill -9 at random moments and restarts: every part reaches the SMSC exactly once", async () => {
    await withSchema((url) => scenario(url, 4))
  }, 120_000)

  it.skipIf(postgresUrl === "")("PostgreSQL: three dispatcher processes share a broadcast, one is killed mid-run, the others finish its parts: each once", async () => {
    await withSchema(async (store) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-dispatch-"))
      const smsc = await TestSmsc.start({
        respondDelayMs: 25,
        receipt: (_part, index) => ({ stat: index % 33 === 4 ? "UNDELIV" : "DELIVRD", delayMs: 10 })
      })
      const children: Array<ChildProcess> = []
      try {
        const recipients = 300
        const parts = recipients * 2
        const env = {
          ...process.env,
          SMSBOOK_STORE: store,
          SMSBOOK_SHORT_NAME: shortName,
          SMSBOOK_CARRIER: `smpp://smsbook:secret@127.0.0.1:${smsc.port}?window=10&tps=100`
        }
        expect(prepare(dir, env, recipients)).toMatchObject({ sent_count: parts })
        const dispatchers = Array.from({ length: 3 }, () => {
          // The default doubt (10 s): on a loaded machine a receipt held by one dispatcher must settle the part another recovered first.
          const child = spawn(process.execPath, [bin, "dispatch", "--once", "--json", "--receipt-wait", "15"], { cwd: dir, env, stdio: ["ignore", "pipe", "ignore"] })
          let stdout = ""
          child.stdout?.on("data", (chunk: Buffer) => void (stdout += chunk.toString()))
          return { child, done: exited(child), output: () => stdout }
        })
        children.push(...dispatchers.map((dispatcher) => dispatcher.child))
        expect(await until(() => smsc.binds() >= 3 && smsc.accepted.length >= 100, 60_000)).toBe(true)
        const [victim, ...others] = dispatchers
        victim?.child.kill("SIGKILL")
        await victim?.done
        const killedAt = smsc.accepted.length
        expect(await Promise.all(others.map((other) => other.done))).toEqual([0, 0])
        const summaries = others.map((other) => JSON.parse(other.output()) as { submitted: number; requeued: number; inDoubt: number })
        const keys = smsc.accepted.map((part) => `${part.destination}/${part.concatenation?.sequence}`)
        const twice = keys.filter((key, index) => keys.indexOf(key) !== index)
        const detail = `summaries ${others.map((other) => other.output()).join(" ")}; accepted twice: ${
          JSON.stringify(smsc.accepted.filter((part) => twice.includes(`${part.destination}/${part.concatenation?.sequence}`)).map((part) => [part.destination, part.concatenation?.sequence, part.messageId]))}`
        expect({ twice, count: keys.length, killedAt: killedAt < parts }, detail).toEqual({ twice: [], count: parts, killedAt: true })
        // The killed one held parts (claimed or on the wire) that the others took over.
        expect(summaries.reduce((sum, summary) => sum + summary.requeued + summary.inDoubt, 0)).toBeGreaterThan(0)
        const failed = [...smsc.receipts.values()].filter((stat) => stat === "UNDELIV").length
        const [stored] = cli(["messages", "list", "--json"], dir, env) as Array<{ sent_count: number; error_count: number }>
        expect([stored?.sent_count, stored?.error_count]).toEqual([parts, failed])
      } finally {
        await stopAll(children)
        await smsc.close()
        fs.rmSync(dir, { recursive: true, force: true })
      }
    })
  }, 120_000)
})
