/**
 * The error body of a use case's failure: the status its endpoint declares, a store's failure as itself (500
 * `STORE_FAILURE`, as the error table says; a lost connection 503 `STORE_UNAVAILABLE`), anything else undeclared as
 * 500 `INTERNAL_ERROR`.
 */
import { ContactNotFound, InvalidField, StoreFailure } from "@smsbook/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import * as ErrorBody from "../src/ErrorBody.ts"

const bodyOf = (error: InvalidField | ContactNotFound | StoreFailure) =>
  Effect.runSync(Effect.flip(ErrorBody.mapTo([400])(Effect.fail(error))))

describe("ErrorBody.mapTo", () => {
  it("keeps a declared status, answers a store failure as STORE_FAILURE, and anything else undeclared as INTERNAL_ERROR", () => {
    expect(bodyOf(new InvalidField({ field: "id", value: "", reason: "must not be empty" }))).toMatchObject({
      error: { code: "INVALID_FIELD", number: 1000, status: 400, details: { field: "id" } }
    })
    expect(bodyOf(new StoreFailure({ operation: "messages.insert", reason: "disk full" }))).toMatchObject({
      error: { code: "STORE_FAILURE", number: 2002, status: 500, details: { operation: "messages.insert" } }
    })
    expect(bodyOf(new ContactNotFound({ msisdn: "447400123456" }))).toMatchObject({
      error: { code: "INTERNAL_ERROR", number: 3006, status: 500, message: expect.stringContaining("CONTACT_NOT_FOUND") }
    })
  })

  it("answers a lost store 503 STORE_UNAVAILABLE, and never shows a client the driver's text", () => {
    const reason = "PgConnection: Failed to connect: connect ECONNREFUSED 127.0.0.1:54341"
    const lost = bodyOf(new StoreFailure({ operation: "apiKeys.verify", reason, problem: "connection" }))
    expect(lost).toEqual({
      error: {
        code: "STORE_UNAVAILABLE",
        number: 2001,
        status: 503,
        message: "the store cannot be reached (during apiKeys.verify): try again shortly",
        details: { operation: "apiKeys.verify", problem: "connection" }
      }
    })
    const failed = bodyOf(new StoreFailure({ operation: "messages.insert", reason: "SQLITE_FULL: /var/lib/book.db", problem: "disk-full" }))
    expect(failed).toMatchObject({ error: { status: 500, details: { operation: "messages.insert", problem: "disk-full" } } })
    for (const body of [lost, failed]) expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|54341|book\.db/)
  })

  it("echoes at most 200 characters of a value, in the message and in details", () => {
    const value = "é".repeat(300)
    const body = bodyOf(new InvalidField({ field: "first_name", value, reason: "is too long" }))
    const shown = `${"é".repeat(200)}… (300 characters)`
    expect(body).toMatchObject({ error: { message: `first_name: is too long (got ${JSON.stringify(shown)})`, details: { value: shown } } })
  })
})
