/**
 * The error body of a use case's failure: the status its endpoint declares, a store's failure as itself (500
 * `STORE_FAILURE`, as the error table says), anything else undeclared as 500 `INTERNAL_ERROR`.
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
})
