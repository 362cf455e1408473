/**
 * The command line as a user runs it: a real `smsbook` process on a temporary SQLite file,
 * checked by its stdout, stderr and exit code. Just over 400 lines as one file: its cases share one book, built once.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { DatabaseSync } from "node:sqlite"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"

// Every step is a process: on a loaded machine a test of several steps needs minutes, not seconds.
vi.setConfig({ testTimeout: 300_000 })

const bin = path.resolve(import.meta.dirname, "../src/bin.ts")
let dir = ""
let store = ""

/** Runs smsbook with `input` as its standard input. */
const piped = (input: string, ...args: ReadonlyArray<string>) => {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, SMSBOOK_STORE: store, SMSBOOK_SHORT_NAME: "", SMSBOOK_TIME_ZONE: "" },
    input,
    timeout: 60_000
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

const smsbook = (...args: ReadonlyArray<string>) => piped("", ...args)

const json = (...args: ReadonlyArray<string>) => {
  const run = smsbook(...args, "--json")
  expect(run.stderr).toBe("")
  expect(run.code).toBe(0)
  return JSON.parse(run.stdout)
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-cli-"))
  store = `sqlite:${path.join(dir, "book.db")}`
  // Only import and init create a book: every other command refuses a store that does not exist.
  expect(smsbook("init", "--no-input", "--store", store).code).toBe(0)
})

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe("smsbook inspect", () => {
  it("prices a GSM-7 text", () => {
    const report = json("inspect", "Your code is 1234", "--short-name", "ACME")
    expect(report).toMatchObject({ prefixed: "ACME: Your code is 1234", encoding: "GSM-7", segments: 1, fits: true, budget: 154 })
  })

  it("names the characters that force UCS-2 and their look-alikes", () => {
    const report = json("inspect", "Don’t miss it…", "--short-name", "ACME")
    expect(report.encoding).toBe("UCS-2")
    expect(report.ucs2_characters).toEqual([
      { char: "’", index: 9, suggestion: "'" },
      { char: "…", index: 19, suggestion: "..." }
    ])
    expect(report.gsm_safe).toEqual({ text: "Don't miss it...", encoding: "GSM-7", segments: 1, length: 16, fits: true })
    // A look-alike may be longer than its character: the advice says when it no longer fits.
    const long = json("inspect", `${"x".repeat(153)}…`, "--short-name", "ACME")
    expect([long.fits, long.gsm_safe]).toMatchObject([true, { length: 156, fits: false }])
  })

  it("refuses what a send refuses: an empty or blank text, exit 2 naming TEXT", () => {
    for (const text of ["", "   "]) {
      const run = smsbook("inspect", text, "--short-name", "ACME", "--json")
      expect([run.code, JSON.parse(run.stdout).error]).toMatchObject([2, { code: "INVALID_FIELD", field: "TEXT" }])
    }
  })

  it("refuses a text over the budget with exit code 2, after showing it", () => {
    const run = smsbook("inspect", "x".repeat(155), "--short-name", "ACME")
    expect(run.code).toBe(2)
    expect(run.stdout).toContain("TOO LONG")
    expect(run.stderr).toContain("MESSAGE_TOO_LONG (1002)")
    // With --json the refusal's one document carries the analysis, where `fits` is false.
    const json = smsbook("inspect", "x".repeat(155), "--short-name", "ACME", "--json")
    expect([json.code, JSON.parse(json.stdout).error]).toMatchObject([2, {
      code: "MESSAGE_TOO_LONG",
      field: "TEXT",
      inspection: { fits: false, budget: 154, length: 155, segments: 2 }
    }])
  })

  it("refuses to guess a short name (exit 2) and a missing text (exit 2)", () => {
    expect(smsbook("inspect", "hello").code).toBe(2)
    expect(smsbook("inspect", "--short-name", "ACME").code).toBe(2)
  })

  it("--help explains every flag and exits 0", () => {
    const run = smsbook("inspect", "--help")
    expect(run.code).toBe(0)
    expect(run.stdout).toContain("--short-name")
    expect(run.stdout).toContain("--json")
  })
})

describe("contacts, send, receive, messages", () => {
  it("adds, edits, lists and deletes a contact as the interface shapes it", () => {
    const ann = json("contacts", "add", "+44 7400 123456", "--first-name", "Ann", "--last-name", "Lee", "--tags", "news,vip")
    expect(ann).toMatchObject({
      msisdn: "447400123456",
      country_code: "44",
      phone_number: "7400123456",
      full_name: "Ann Lee",
      added_from: "API",
      status: "SUBSCRIBED",
      tags: ["news", "vip"],
      monitoring: false
    })
    expect(ann.profile_uid).toMatch(/^[0-9a-f]{32}$/)
    expect(json("contacts", "edit", "447400123456", "--last-name", "Smith")).toMatchObject({ full_name: "Ann Smith" })
    expect(json("contacts", "list", "--query", "smi", "--short")).toEqual([
      { msisdn: "447400123456", first_name: "Ann", last_name: "Smith", status: "SUBSCRIBED" }
    ])
    json("contacts", "add", "447400123457")
    expect(json("contacts", "rm", "447400123457")).toEqual({ msisdn: "447400123457", deleted: true })
    // --default-country reads a country as an import's cells do: a name, an alpha-3 code or a calling code.
    for (const country of ["United Kingdom", "GBR", "+44"]) {
      expect(json("contacts", "get", "07400 123456", "--default-country", country)).toMatchObject({ msisdn: "447400123456" })
    }
  })

  it("with --json, a failure is also a JSON object on stdout", () => {
    const run = smsbook("send", "--to", "447400123456", "--message", "hi", "--short-name", "A", "--time-zone", "+01:00", "--json")
    expect(run.code).toBe(2)
    expect(JSON.parse(run.stdout)).toEqual({
      error: expect.objectContaining({ code: "INVALID_SETTINGS", number: 1016, status: 400, exit_code: 2 })
    })
  })

  it("answers a missing contact with exit 1 and a bad number with exit 2", () => {
    const missing = smsbook("contacts", "get", "447400999999")
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain("CONTACT_NOT_FOUND (1011)")
    const bad = smsbook("contacts", "add", "12ab")
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("INVALID_PARAMETER")
    expect(bad.stderr).toContain("parameter MSISDN")
    expect(smsbook("contacts", "add", "447400123456").stderr).toContain("CONTACT_EXISTS")
  })

  it("sends one SMS, refuses the same id again, and lists it", () => {
    const sent = json("send", "--to", "447400123456", "--message", "Hello", "--id", "42", "--short-name", "ACME")
    expect(sent).toMatchObject({ status: "SENT", type: 1, id: "42", msisdn: "447400123456", country: "44", sent_count: 1 })
    const again = smsbook("send", "--to", "447400123456", "--message", "Hello", "--id", "42", "--short-name", "ACME")
    expect(again.code).toBe(1)
    expect(again.stderr).toContain("DUPLICATE_SEND")
    const listed = json("messages", "list", "--direction", "MT", "--msisdn", "447400123456")
    expect(listed.map((m: { message: string }) => m.message)).toEqual(["Hello"])
  })

  it("without --id, the same text to the same number is sent once per spam period; --id sends it again on purpose", () => {
    const first = json("send", "--to", "447400123456", "--message", "Table ready", "--short-name", "ACME")
    expect(first.id).toMatch(/^sd-[0-9a-f]{37}$/)
    const again = smsbook("send", "--to", "+44 7400 123456", "--message", "Table ready", "--short-name", "ACME", "--json")
    // Refused as the interface's anti-spam rule refuses a duplicate, with the way to send it again on purpose.
    expect(again.code).toBe(1)
    const error = JSON.parse(again.stdout).error
    expect(error).toMatchObject({ code: "DUPLICATE_SEND", hints: [expect.stringContaining("pass --id ID to send it again on purpose")] })
    expect(error.message).toContain(`already used by message ${first.message_id}`)
    expect(again.stderr).toContain("pass --id ID to send it again on purpose")
    expect(json("send", "--to", "447400123456", "--message", "Table ready!", "--short-name", "ACME").id).not.toBe(first.id)
    expect(json("send", "--to", "447400123456", "--message", "Table ready", "--short-name", "ACME", "--id", "again").status).toBe("SENT")
  })

  it("an inbound STOP opts the sender out, and nothing is sent to it after", () => {
    const received = json("receive", "--msisdn", "447400123456", "--message", "stop")
    expect(received.action).toBe("opt-out")
    expect(received.contact.status).toBe("CANCELLED")
    const refused = smsbook("send", "--to", "447400123456", "--message", "Hi", "--short-name", "ACME")
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("RECIPIENT_OPTED_OUT")
    expect(json("messages", "list", "--direction", "MO")[0]).toMatchObject({ direction: "MO", message: "stop" })
    json("contacts", "resubscribe", "447400123456", "--confirm")
  })
})

describe("smsbook broadcast", () => {
  it("plans, refuses an edited plan, sends the plan once", () => {
    json("contacts", "add", "447400200001", "--tags", "club")
    json("contacts", "add", "447400200002", "--tags", "CLUB,news")
    json("contacts", "add", "447400200003", "--tags", "club")
    json("contacts", "opt-out", "447400200003")
    const plan = path.join(dir, "plan.json")
    const planned = json("broadcast", "--tags", "club", "--message", "Meet at 8", "--short-name", "ACME", "--dry-run", "--plan", plan)
    expect(planned).toMatchObject({ recipients: 2, monitors: 0, segments: 1, sent_count: 2, encoding: "GSM-7", dry_run: true })
    const written = JSON.parse(fs.readFileSync(plan, "utf8"))
    expect(written.audience).toEqual([["447400200001", "recipient"], ["447400200002", "recipient"]])

    const edited = path.join(dir, "edited.json")
    fs.writeFileSync(edited, JSON.stringify({ ...written, audience: [...written.audience, ["447400200003", "recipient"]] }))
    const refused = smsbook("broadcast", "--plan", edited, "--short-name", "ACME")
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("PLAN_MISMATCH")

    const sent = json("broadcast", "--plan", plan, "--short-name", "ACME")
    expect(sent).toMatchObject({ recipients: 2, monitors: 0, sent_count: 2, status: "SENT", handed_over: 2 })
    expect(smsbook("broadcast", "--plan", plan, "--short-name", "ACME").stderr).toContain("DUPLICATE_SEND")
  }, 120_000) // a dozen CLI processes, each paying start-up

  it("one broadcast, sent directly and from a plan in either order, goes out once; its dry run says so", () => {
    json("contacts", "add", "447400200101", "--tags", "shop")
    json("contacts", "add", "447400200102", "--tags", "SHOP")
    const early = path.join(dir, "early.json")
    json("broadcast", "--tags", "shop", "--message", "Shop opens at 9", "--short-name", "ACME", "--dry-run", "--plan", early)
    expect(json("broadcast", "--tags", "ShOp", "--message", "Shop opens at 9", "--short-name", "ACME")).toMatchObject({ handed_over: 2 })
    const fromPlan = smsbook("broadcast", "--plan", early, "--short-name", "ACME")
    expect(fromPlan.code).toBe(1)
    expect(fromPlan.stderr).toContain("DUPLICATE_SEND")
    const dryRun = smsbook("broadcast", "--tags", "SHOP", "--message", "Shop opens at 9", "--short-name", "ACME", "--dry-run")
    expect(dryRun.code).toBe(1)
    expect(dryRun.stderr).toContain("DUPLICATE_SEND")
    for (const [id, code] of [["x".repeat(41), "EXTERNAL_ID_TOO_LONG"], ["", "INVALID_FIELD"]] as const) {
      const refused = smsbook("broadcast", "--tags", "shop", "--message", "Other", "--short-name", "ACME", "--dry-run", `--id=${id}`, "--plan", "id.json")
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain(code)
      expect(fs.existsSync(path.join(dir, "id.json"))).toBe(false)
    }
  }, 120_000)

  it("a dry run sends nothing, with or without --json: the same broadcast then goes out in full", () => {
    json("contacts", "add", "447400200301", "--tags", "dry")
    json("contacts", "add", "447400200302", "--tags", "dry")
    const human = smsbook("broadcast", "--tags", "dry", "--message", "Doors at 8", "--short-name", "ACME", "--dry-run")
    expect(human.code, human.stderr).toBe(0)
    expect(json("broadcast", "--tags", "dry", "--message", "Doors at 8", "--short-name", "ACME", "--dry-run")).toMatchObject({ recipients: 2, dry_run: true })
    expect(json("messages", "list", "--direction", "MT").filter((message: { readonly message: string }) => message.message === "Doors at 8")).toEqual([])
    expect(json("broadcast", "--tags", "dry", "--message", "Doors at 8", "--short-name", "ACME")).toMatchObject({ recipients: 2, status: "SENT", handed_over: 2 })
  }, 60_000)

  it("reads a plan and a message file from standard input (-)", () => {
    json("contacts", "add", "447400200201", "--tags", "piped")
    const text = piped("Doors at 7\n", "broadcast", "--tags", "piped", "--message-file", "-", "--short-name", "ACME", "--dry-run", "--plan", "-")
    expect(text.code, text.stderr).toBe(0)
    expect(JSON.parse(text.stdout)).toMatchObject({ message: "Doors at 7", audience: [["447400200201", "recipient"]] })
    const sent = piped(text.stdout, "broadcast", "--plan", "-", "--short-name", "ACME", "--json")
    expect(sent.code, sent.stderr).toBe(0)
    expect(JSON.parse(sent.stdout)).toMatchObject({ recipients: 1, status: "SENT", handed_over: 1 })
    const nothing = smsbook("broadcast", "--plan", "-", "--short-name", "ACME")
    expect([nothing.code, nothing.stderr.includes("is not JSON")]).toEqual([2, true])
  }, 60_000)

  it("a dry run refuses what the send would refuse, and --plan takes nothing else", () => {
    expect(smsbook("broadcast", "--message", "Hi", "--short-name", "ACME", "--dry-run").stderr).toContain("MISSING_TAGS")
    const nobody = smsbook("broadcast", "--tags", "nobody", "--message", "Hi", "--short-name", "ACME", "--dry-run")
    expect(nobody.code).toBe(2)
    expect(nobody.stderr).toContain("NO_RECIPIENTS")
    const mixed = smsbook("broadcast", "--plan", "plan.json", "--tags", "club", "--short-name", "ACME")
    expect(mixed.code).toBe(2)
    expect(mixed.stderr).toContain("--tags")
    expect(smsbook("broadcast", "--plan", "missing.json", "--short-name", "ACME").code).toBe(2)
  })

  it("refuses a send that would reach nobody unless --allow-empty, and a send without tags", () => {
    const empty = smsbook("broadcast", "--tags", "nobody", "--message", "Hi", "--short-name", "ACME")
    expect(empty.code).toBe(2)
    expect(empty.stderr).toContain("NO_RECIPIENTS")
    expect(json("broadcast", "--tags", "nobody", "--message", "Hi", "--short-name", "ACME", "--allow-empty")).toMatchObject({
      recipients: 0,
      status: "SENT"
    })
    expect(smsbook("broadcast", "--message", "Hi", "--short-name", "ACME").stderr).toContain("MISSING_TAGS")
  })
})

describe("smsbook report", () => {
  it("writes spreadsheet-safe CSV and a summary", () => {
    json("send", "--to", "447400200001", "--message", "=HYPERLINK(\"x\")", "--short-name", "ACME")
    const out = path.join(dir, "report.csv")
    const run = smsbook("report", "--out", out, "--summary", "--direction", "MT")
    expect(run.code).toBe(0)
    const csv = fs.readFileSync(out, "utf8")
    expect(csv.split("\n")[0]).toBe(
      "message_id,id,short_code,country,msisdn,direction,status,message,total_recipients,sent_count,error_count," +
        "total_monitors,is_scheduled,is_billable,created_on,created_by,type"
    )
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`)
    expect(csv).not.toMatch(/,=HYPERLINK/)
    expect(run.stdout).toMatch(/MT\s+SENT/)
  })

  it("writes the same messages as JSON", () => {
    const run = smsbook("report", "--format", "json")
    expect(run.code).toBe(0)
    const messages = JSON.parse(run.stdout)
    expect(messages.length).toBeGreaterThan(3)
    expect(messages.every((m: { created_on: string }) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(m.created_on))).toBe(true)
  })

  it("a date alone is a whole day: --since and --until of today include today's messages", () => {
    const today = new Date().toISOString().slice(0, 10)
    const rows = JSON.parse(smsbook("report", "--format", "json", "--since", today, "--until", today).stdout)
    const all = JSON.parse(smsbook("report", "--format", "json").stdout)
    expect(rows.length).toBe(all.length)
  })

  it("--from and --to (DESIGN's names in report's synopsis) are --since and --until", () => {
    const today = new Date().toISOString().slice(0, 10)
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
    const all = JSON.parse(smsbook("report", "--format", "json").stdout)
    expect(all.length).toBeGreaterThan(0)
    expect(JSON.parse(smsbook("report", "--format", "json", "--from", today, "--to", today).stdout)).toEqual(all)
    expect(JSON.parse(smsbook("report", "--format", "json", "--from", tomorrow).stdout)).toEqual([])
    expect(smsbook("report", "--since", today, "--from", today).code).toBe(2)
  })

  it("refuses a bad date with exit 2", () => {
    const run = smsbook("report", "--since", "Fri, 21 Nov 2026 10:00:00 GMT")
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("does not match")
    expect(run.stderr).toContain("parameter --since")
  })
})

describe("outputs and hostile input (issue 16)", () => {
  it("refuses a rejects file that is the input, and a report over the store, with exit 2 naming both, leaving both intact", () => {
    const input = path.join(dir, "same.csv")
    fs.writeFileSync(input, "msisdn,first_name\n447400555001,Ann\nnot-a-number,Bob\n")
    const before = fs.readFileSync(input, "utf8")
    const rejects = smsbook("import", "same.csv", "--rejects", "./same.csv")
    expect(rejects.code).toBe(2)
    expect(rejects.stderr).toMatch(/--rejects.*the input FILE \(same\.csv\)/)
    expect(fs.readFileSync(input, "utf8")).toBe(before)
    expect(smsbook("import", "same.csv", "--rejects", "r.csv").code).toBe(0)
    const report = smsbook("report", "--out", path.join(dir, "book.db"))
    expect(report.code).toBe(2)
    expect(report.stderr).toMatch(/the store/)
    expect(smsbook("contacts", "get", "447400555001").code).toBe(0)
  })

  it("writes --out /dev/null in place and reports /dev/full in words with exit 1", () => {
    expect(smsbook("report", "--out", "/dev/null").code).toBe(0)
    expect(fs.statSync("/dev/null").isCharacterDevice()).toBe(true)
    const full = smsbook("report", "--out", "/dev/full")
    expect(full.code).toBe(1)
    expect(full.stderr).toMatch(/no space left/)
  })

  it("refuses control characters in a name, and shows those a book holds from before as visible escapes, never raw", () => {
    const refused = smsbook("contacts", "add", "447400555002", "--first-name", "Ann\u001b]0;pwned\u0007")
    expect([refused.code, refused.stderr.includes("control character")]).toEqual([2, true])
    expect(smsbook("contacts", "add", "447400555002", "--first-name", "Ann").code).toBe(0)
    const book = new DatabaseSync(store.slice("sqlite:".length))
    book.prepare("UPDATE contacts SET first_name = ? WHERE msisdn = ?").run("Ann\u001b]0;pwned\u0007", "447400555002")
    book.close()
    const shown = smsbook("contacts", "get", "447400555002")
    expect(shown.stdout).not.toContain("\u001b")
    expect(shown.stdout).toContain("\\x1b]0;pwned\\x07")
  })

  it("refuses a blank --message, a message file that is not UTF-8, and --store ''", () => {
    const blank = smsbook("send", "--to", "447400555001", "--message", "  ", "--short-name", "ACME")
    expect([blank.code, blank.stderr.includes("message")]).toEqual([2, true])
    fs.writeFileSync(path.join(dir, "latin1.txt"), Buffer.from([0x43, 0x61, 0x66, 0xe9]))
    const latin1 = smsbook("broadcast", "--tags", "x", "--message-file", "latin1.txt", "--short-name", "ACME", "--dry-run")
    expect([latin1.code, /not valid UTF-8/.test(latin1.stderr)]).toEqual([2, true])
    expect(smsbook("contacts", "list", "--store", "").code).toBe(2)
  })
})

describe("outputs that cannot be written", () => {
  it("a missing directory or a directory as the path: exit 2 naming the flag, for every output alike", () => {
    fs.mkdirSync(path.join(dir, "a-directory"), { recursive: true })
    fs.writeFileSync(path.join(dir, "one.csv"), "msisdn\nnot a number\n")
    for (const place of ["no-such-directory/out.csv", "a-directory"]) {
      for (const [flag, args] of [
        ["--rejects", ["import", "one.csv", "--default-country", "GB", "--rejects", place]],
        ["--rejects", ["suppressions", "import", "one.csv", "--default-country", "GB", "--rejects", place]],
        ["--out", ["report", "--out", place]],
        ["--out", ["contacts", "export", "--out", place]],
        ["--out", ["suppressions", "export", "--out", place]],
        ["--plan", ["broadcast", "--tags", "news", "--message", "Hi", "--short-name", "ACME", "--allow-empty", "--dry-run", "--plan", place]]
      ] as const) {
        const run = smsbook(...args, "--json")
        expect([run.code, JSON.parse(run.stdout).error], `${args.join(" ")}`).toMatchObject([2, { code: "INVALID_PARAMETER", field: flag }])
      }
    }
  })
})

describe("--json with effect/cli's own global flags", () => {
  it("--wizard and --completions, which write no JSON document, are refused with one (2)", () => {
    for (const args of [["import", "--completions", "bash"], ["import", "--completions=zsh"], ["contacts", "rm", "447400123457", "--wizard"]]) {
      const run = smsbook(...args, "--json")
      expect([run.code, JSON.parse(run.stdout).error], args.join(" ")).toMatchObject([2, { code: "USAGE" }])
    }
    expect(smsbook("import", "--completions", "bash").stdout).toContain("smsbook")
  })
})

describe("smsbook dispatch", () => {
  it("refuses a negative --tps, --receipt-wait or --doubt-wait (2), as the carrier URL's tps=-5 is", () => {
    for (const flag of ["--tps", "--receipt-wait", "--doubt-wait"]) {
      const run = smsbook("dispatch", "--once", "--short-name", "ACME", "--carrier", "smpp://user:secret@127.0.0.1:1", `${flag}=-1`, "--json")
      expect(run.code, flag).toBe(2)
      expect(JSON.parse(run.stdout).error, flag).toMatchObject({ code: "INVALID_PARAMETER", field: flag })
    }
  })
})
