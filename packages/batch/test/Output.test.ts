/**
 * The exit code, stderr line and JSON form of every error smsbook can report, checked against one
 * instance of each error in the catalog and against failures that are not smsbook's.
 */
import { Errors } from "@smsbook/core"
import { Effect } from "effect"
import * as fc from "fast-check"
import * as fs from "node:fs"
import { describe, expect, it } from "vitest"
import * as CliErrors from "../src/CliErrors.ts"
import * as Output from "../src/Output.ts"
import * as Visible from "../src/internal/visible.ts"

type Tag = keyof typeof Output.catalog

/** One instance of every error of the catalog; the type makes the list exhaustive. */
const examples: { readonly [T in Tag]: Extract<Output.ReportedError, { readonly _tag: T }> } = {
  InvalidField: new Errors.InvalidField({ field: "first_name", value: "x", reason: "is too long" }),
  InvalidMsisdn: new Errors.InvalidMsisdn({ value: "12", problem: "too-short" }),
  MessageTooLong: new Errors.MessageTooLong({ length: 200, max: 150 }),
  ExternalIdTooLong: new Errors.ExternalIdTooLong({ value: "x".repeat(41), length: 41, max: 40 }),
  InvalidHttpDate: new Errors.InvalidHttpDate({ value: "yesterday", reason: "no weekday" }),
  InvalidCreatedOn: new Errors.InvalidCreatedOn({ value: "2024-13-01 00:00:00", reason: "no such month" }),
  InvalidParameter: new Errors.InvalidParameter({ parameter: "Limit", value: "0", reason: "must be a whole number from 1 to 1000" }),
  MissingTags: new Errors.MissingTags(),
  IllegalTransition: new Errors.IllegalTransition({ entity: "message", from: "SENT", to: "PENDING" }),
  DuplicateSend: new Errors.DuplicateSend({ id: "a", message_id: "m1", created_at: "2024-01-01T00:00:00.000Z" }),
  ContactExists: new Errors.ContactExists({ msisdn: "447400123456" }),
  ContactNotFound: new Errors.ContactNotFound({ msisdn: "447400123456" }),
  RecipientOptedOut: new Errors.RecipientOptedOut({ msisdn: "447400123456" }),
  NoRecipients: new Errors.NoRecipients({ tags: ["news"] }),
  PlanMismatch: new CliErrors.PlanMismatch({ reason: "it was edited" }),
  InvalidStoreUrl: new Errors.InvalidStoreUrl({ url: "ftp://x", reason: "unknown scheme" }),
  InvalidSettings: new CliErrors.InvalidSettings({ setting: "time_zone", value: "Mars/Olympus", reason: "unknown" }),
  MessageNotFound: new Errors.MessageNotFound({ message_id: "m1" }),
  TooManyRejects: new CliErrors.TooManyRejects({ rejected: 12, allowed: "10" }),
  StoreUnavailable: new Errors.StoreUnavailable({ url: "postgres://db", reason: "connection refused" }),
  StoreFailure: new Errors.StoreFailure({ operation: "insert", reason: "disk I/O error" }),
  CarrierFailure: new Errors.CarrierFailure({ reason: "timeout" }),
  FileFailure: new CliErrors.FileFailure({ path: "out.csv", reason: "permission denied" }),
  StoreNotFound: new CliErrors.StoreNotFound({ path: "contcts.db" }),
  Usage: new CliErrors.Usage({ reason: "Missing required flag: --to", field: "--to" }),
  Interrupted: new CliErrors.Interrupted({ signal: "SIGTERM" }),
  Unexpected: new CliErrors.Unexpected({ reason: "Cannot read properties of undefined (reading 'length')" })
}

const tags = Object.keys(Output.catalog).filter((tag): tag is Tag => Object.hasOwn(examples, tag))
const anyError = fc.constantFrom(...tags).map((tag) => examples[tag])

/** The exit code the contract (DESIGN.md) gives an error, written from the catalog's HTTP status. */
const expectedExit = (tag: Tag): number => {
  if (tag === "TooManyRejects") return 3
  if (tag === "Interrupted") return 143
  const { status } = Output.catalog[tag]
  return status === 400 || status === 422 ? 2 : 1
}

/** Failures that are not smsbook's: plain errors, strings, look-alikes with an unknown tag, nothing. */
const foreign = fc.oneof(
  fc.string().map((message) => new Error(message)),
  fc.string(),
  fc.string().filter((tag) => !Object.hasOwn(Output.catalog, tag)).map((tag) => ({ _tag: tag, message: "x" })),
  fc.constantFrom(null, undefined, 42, { message: "no tag" }, { _tag: 7 })
)

describe("Output.catalog", () => {
  it("is core's catalog and the command line's, no tag in both, numbers and codes unique", () => {
    const core = Object.keys(Errors.catalog)
    const cli = Object.keys(CliErrors.catalog)
    expect(core.filter((tag) => cli.includes(tag))).toEqual([])
    expect(Object.keys(Output.catalog).sort()).toEqual([...core, ...cli].sort())
    const infos = Object.values(Output.catalog)
    expect(new Set(infos.map((info) => info.number)).size).toBe(infos.length)
    expect(new Set(infos.map((info) => info.code)).size).toBe(infos.length)
  })

  it("the README's error table is every catalog, in number order", () => {
    const readme = fs.readFileSync(new URL("../../../README.md", import.meta.url), "utf8")
    const table = readme.split("<!-- errors:start -->")[1]?.split("<!-- errors:end -->")[0] ?? ""
    const rows = table.trim().split("\n").slice(2).map((line) => line.split("|").map((cell) => cell.trim()).filter(Boolean))
    const entries = Object.entries(Output.catalog).sort(([, a], [, b]) => a.number - b.number)
    expect(rows).toEqual(entries.map(([tag, info]) => [tag, info.code, String(info.number), String(info.status)]))
  })
})

describe("Output.exitCodeOf", () => {
  it("every tag of the catalog has an example here", () => {
    expect(tags).toHaveLength(Object.keys(Output.catalog).length)
    for (const tag of tags) expect(examples[tag]._tag).toBe(tag)
  })

  it("law: 3 for TooManyRejects, 2 for input errors (400, 422), 1 for every other smsbook error", () => {
    for (const tag of tags) {
      expect([tag, Output.exitCodeOf(examples[tag])]).toEqual([tag, expectedExit(tag)])
    }
  })

  it("examples of each class", () => {
    expect(Output.exitCodeOf(examples.TooManyRejects)).toBe(Output.ExitCode.tooManyRejects)
    expect(Output.exitCodeOf(examples.InvalidMsisdn)).toBe(Output.ExitCode.badInput)
    expect(Output.exitCodeOf(examples.NoRecipients)).toBe(Output.ExitCode.badInput)
    expect(Output.exitCodeOf(examples.InvalidSettings)).toBe(Output.ExitCode.badInput)
    expect(Output.exitCodeOf(examples.MissingTags)).toBe(Output.ExitCode.badInput)
    expect(Output.exitCodeOf(examples.PlanMismatch)).toBe(Output.ExitCode.failed)
    expect(Output.exitCodeOf(examples.ContactNotFound)).toBe(Output.ExitCode.failed)
    expect(Output.exitCodeOf(examples.StoreUnavailable)).toBe(Output.ExitCode.failed)
    expect(Output.exitCodeOf(examples.FileFailure)).toBe(Output.ExitCode.failed)
  })

  it("law: a failure that is not smsbook's exits 1", () => {
    fc.assert(fc.property(foreign, (error) => {
      expect(Output.exitCodeOf(error)).toBe(1)
      expect(Output.isSmsbookError(error)).toBe(false)
    }))
  })

  it("law: every exit code of a failure is 1, 2, 3, 130 or 143, never 0", () => {
    fc.assert(fc.property(fc.oneof(anyError, foreign), (error) => {
      expect([1, 2, 3, 130, 143]).toContain(Output.exitCodeOf(error))
    }))
  })
})

describe("Output.describeError", () => {
  it("law: an smsbook error reads `error CODE (number): message` with its catalog code and number", () => {
    fc.assert(fc.property(anyError, (error) => {
      const { code, number } = Output.catalog[error._tag]
      expect(Output.describeError(error)).toBe(`error ${code} (${number}): ${error.message}`)
      expect(Output.describeError(error)).toMatch(/^error [A-Z0-9_]+ \(\d{4}\): \S/)
    }))
  })

  it("examples", () => {
    expect(Output.describeError(examples.ContactNotFound)).toBe("error CONTACT_NOT_FOUND (1011): no contact with msisdn 447400123456")
    expect(Output.describeError(examples.TooManyRejects)).toBe(
      "error TOO_MANY_REJECTS (1018): nothing imported: 12 rows rejected, more than --max-rejects 10"
    )
    expect(Output.describeError(new Error("boom"))).toBe("error FAILED (2006): boom")
    expect(Output.describeError("plain text")).toBe("error FAILED (2006): plain text")
  })

  it("law: a failure that is not smsbook's is one line of code FAILED with its message, as Unexpected", () => {
    fc.assert(fc.property(fc.string(), (message) => {
      expect(Output.describeError(new Error(message))).toBe(Visible.show(`error FAILED (2006): ${message}`))
    }))
  })
})

describe("Output.errorJson", () => {
  it("law: an smsbook error gives its code, number, status, tag, message and exit code, and the flag it names", () => {
    fc.assert(fc.property(anyError, (error) => {
      const { code, number, status } = Output.catalog[error._tag]
      const { field, ...rest } = Output.errorJson(error).error as Record<string, unknown>
      expect(rest).toStrictEqual({ code, number, status, tag: error._tag, message: error.message, exit_code: expectedExit(error._tag) })
      if (field !== undefined) expect(typeof field).toBe("string")
    }))
  })

  it("examples: the field a script can point at", () => {
    expect(Output.errorJson(examples.InvalidParameter).error).toMatchObject({ field: "Limit" })
    expect(Output.errorJson(examples.Usage).error).toMatchObject({ field: "--to", code: "USAGE", number: 1020 })
    expect(Output.errorJson(examples.StoreNotFound).error).toMatchObject({ field: "--store", code: "STORE_NOT_FOUND" })
    expect(Output.errorJson(examples.MessageTooLong).error).toMatchObject({ field: "--message", code: "MESSAGE_TOO_LONG" })
    expect(Output.errorJson(examples.ExternalIdTooLong).error).toMatchObject({ field: "--id", code: "EXTERNAL_ID_TOO_LONG" })
    expect(Output.errorJson(examples.MissingTags).error).toMatchObject({ field: "--tags", code: "MISSING_TAGS" })
    expect(Output.errorJson(examples.Interrupted).error).toMatchObject({ code: "INTERRUPTED", exit_code: 143 })
    expect(Output.errorJson(new CliErrors.Interrupted({ signal: "SIGINT" })).error.exit_code).toBe(130)
    expect(Output.errorJson(new CliErrors.Interrupted({ signal: "SIGHUP" })).error.exit_code).toBe(129)
  })

  it("TooManyRejects carries the import summary, and says plainly that nothing was imported", () => {
    const error = new CliErrors.TooManyRejects({ rejected: 1234, allowed: "1%", read: 20000, summary: { read: 20000 } })
    expect(error.message).toBe("nothing imported: 1,234 of 20,000 rows rejected (6.2 %), more than --max-rejects 1%")
    expect(Output.errorJson(error).error).toMatchObject({ summary: { read: 20000 }, exit_code: 3 })
  })

  it("law: a foreign failure is reported as Unexpected: code FAILED with its number and status, its own message, exit code 1", () => {
    fc.assert(fc.property(foreign, (error) => {
      const message = error instanceof Error ? error.message : String(error)
      expect(Output.errorJson(error)).toStrictEqual({
        error: { code: "FAILED", number: 2006, status: 500, tag: "Unexpected", message, exit_code: 1 }
      })
      expect(Output.describeError(error)).toBe(Visible.show(`error FAILED (2006): ${message}`))
    }))
  })

  it("what a failure carries stays in its document, a foreign failure's too", () => {
    expect(Output.errorJson(Output.carrying(new Error("boom"), { field: "TEXT" })).error).toMatchObject({ code: "FAILED", field: "TEXT" })
    expect(Output.errorJson(Output.carrying(examples.Usage, { inspection: 1 })).error).toMatchObject({ code: "USAGE", inspection: 1 })
  })

  it("law: the JSON form survives JSON unchanged (plain data, nothing lost)", () => {
    fc.assert(fc.property(fc.oneof(anyError, foreign), (error) => {
      const value = Output.errorJson(error)
      expect(JSON.parse(JSON.stringify(value))).toStrictEqual(value)
    }))
  })
})

describe("Output.collector", () => {
  it("law: the collector keeps one document for stdout: streamed data once it began, else the last document, else nothing", () => {
    // A failure after data streamed to stdout (`report --out - --json`) is told on stderr only: a document after the
    // data would be a second one.
    const step = fc.oneof(fc.record({ document: fc.integer() }), fc.constant("streamed" as const))
    fc.assert(fc.property(fc.array(step, { maxLength: 6 }), (steps) => {
      const collected = Output.collector()
      for (const taken of steps) Effect.runSync(taken === "streamed" ? collected.stdout.streamed : collected.stdout.document(taken.document))
      const documents = steps.flatMap((taken) => taken === "streamed" ? [] : [taken.document])
      expect(collected.pending()).toEqual(
        steps.includes("streamed")
          ? { _tag: "Streamed" }
          : documents.length === 0 ? { _tag: "Nothing" } : { _tag: "Document", value: documents.at(-1) }
      )
    }), { examples: [[["streamed", { document: 1 }]]] })
  })
})
