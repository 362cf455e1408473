/**
 * `smsbook dispatch` as a user runs it, against the test SMSC: a broadcast drained through
 * throttling, a dropped link and failed receipts, with the dispatcher killed (-9) mid-run and restarted.
 */
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { DatabaseSync } from "node:sqlite"
import { Account, ContactBook, Messaging, Sms } from "@smsbook/core"
import { Store } from "@smsbook/store"
import { Effect, Layer, ManagedRuntime } from "effect"
import { describe, expect, it } from "vitest"
import * as TestSmsc from "../../../carrier/test/TestSmsc.ts"

const bin = path.resolve(import.meta.dirname, "../../src/bin.ts")
const shortName = "Shop"
const text = "Привет! Большая распродажа в эти выходные, скидки до 50% на всё — ждём вас"

const prepare = async (file: string, recipients: number) => {
  const runtime = ManagedRuntime.make(Layer.merge(Store.layer(`sqlite:${file}`), Account.layer({ ...Account.defaults, short_name: shortName })))
  await runtime.runPromise(Effect.forEach(Array.from({ length: recipients }, (_, i) => `4474009${String(i).padStart(5, "0")}`), (msisdn) =>
    ContactBook.createContact(msisdn, { first_name: "A" }).pipe(Effect.andThen(ContactBook.editContact(msisdn, { tags: ["news"] })))))
  const result = await runtime.runPromise(Messaging.broadcast({ tags: ["news"], message: text }, { allowEmpty: false }))
  await runtime.dispose()
  return result.message
}

describe("smsbook dispatch", () => {
  it("kill -9 mid-run then a restart: no part reaches the SMSC twice, every part is accounted for, counts follow the receipts", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-dispatch-"))
    const smsc = await TestSmsc.start({
      throttleEvery: 97,
      dropAtSubmit: [900],
      receipt: (_part, index) => ({ stat: index % 33 === 7 ? "UNDELIV" : "DELIVRD", delayMs: 5 })
    })
    try {
      const file = path.join(dir, "book.db")
      const recipients = 1000
      const message = await prepare(file, recipients)
      const parts = Sms.analyzePrefixed(shortName, text).segments * recipients
      expect(message.sent_count).toBe(parts)
      const env = {
        ...process.env,
        SMSBOOK_STORE: file,
        SMSBOOK_SHORT_NAME: shortName,
        SMSBOOK_CARRIER: `smpp://smsbook:secret@127.0.0.1:${smsc.port}?window=10`
      }
      const first = spawn(process.execPath, [bin, "dispatch", "--json"], { cwd: dir, env, stdio: "ignore" })
      const started = Date.now()
      while (smsc.accepted.length < 600 && Date.now() - started < 60_000) await new Promise((resolve) => setTimeout(resolve, 5))
      first.kill("SIGKILL")
      await new Promise((resolve) => first.once("exit", resolve))
      expect(smsc.accepted.length).toBeGreaterThanOrEqual(600)
      expect(smsc.accepted.length).toBeLessThan(parts)

      // Not spawnSync: the test SMSC runs in this process and must keep answering.
      const second = spawn(process.execPath, [bin, "dispatch", "--once", "--json", "--receipt-wait", "5"], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] })
      let stdout = ""
      let stderr = ""
      second.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()))
      second.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
      const status = await new Promise((resolve) => second.once("exit", resolve))
      expect([status, stderr.slice(0, 2000)]).toEqual([0, ""])
      const summary: { submitted: number; failedReceipts: number } = JSON.parse(stdout)
      expect(summary.submitted).toBeGreaterThan(0)

      // Never twice: each (number, part) at most once at the SMSC.
      const keys = smsc.accepted.map((part) => `${part.destination}/${part.concatenation?.sequence}`)
      expect(new Set(keys).size).toBe(keys.length)
      // Each message the SMSC has whole reads as the prefixed text.
      const wholes = smsc.reassembled().filter((whole) => whole.parts === 2)
      expect(wholes.every((whole) => whole.text === Sms.prefix(shortName, text))).toBe(true)

      const db = new DatabaseSync(file)
      const states = new Map(db.prepare("SELECT state, count(*) AS n FROM outbox GROUP BY state").all().map((row) => [String(row["state"]), Number(row["n"])]))
      db.close()
      // Parts on the wire when the first dispatcher died are `unknown` unless a receipt named them; never resent.
      const unknown = states.get("unknown") ?? 0
      expect(unknown).toBeLessThanOrEqual(20)
      expect((states.get("delivered") ?? 0) + (states.get("undeliverable") ?? 0) + unknown).toBe(parts)
      expect(smsc.accepted.length).toBeGreaterThanOrEqual(parts - unknown)
      const failed = [...smsc.receipts.values()].filter((stat) => stat === "UNDELIV").length
      expect(states.get("undeliverable") ?? 0).toBe(failed)

      const listed = spawnSync(process.execPath, [bin, "messages", "list", "--json"], { cwd: dir, env, encoding: "utf8", timeout: 60_000 })
      const [stored]: Array<{ sent_count: number; error_count: number }> = JSON.parse(listed.stdout)
      expect(stored?.sent_count).toBe(parts)
      expect(stored?.error_count).toBe(failed)
    } finally {
      await smsc.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 180_000)
})
