/**
 * The hot endpoints write core's value as JSON without the endpoint's Schema: the bytes must say
 * exactly what the Schema's encoding would (same fields, nothing extra), with the declared status.
 */
import { Contact, CreatedOn, Message, Messaging } from "@smsbook/core"
import { Result, Schema } from "effect"
import type { HttpServerResponse } from "effect/http"
import { Arbitraries } from "@smsbook/testing"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as WireResponse from "../src/internal/wireResponse.ts"

const bodyOf = (response: HttpServerResponse.HttpServerResponse): unknown => {
  const body = response.body
  if (body._tag !== "Uint8Array") throw new Error(`expected a byte body, got ${body._tag}`)
  expect(body.contentType).toBe("application/json")
  return JSON.parse(new TextDecoder().decode(body.body))
}

const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`))

const contact: fc.Arbitrary<Contact.Contact> = fc.record({
  msisdn: digits(8, 15),
  phone_number: digits(6, 12),
  first_name: fc.string(),
  last_name: fc.string(),
  full_name: fc.string(),
  country_code: digits(1, 3),
  added_from: fc.constantFrom("WEB_FORM", "API", "FILE_UPLOAD", "SMS", "SUBSCRIPTION_REQUEST"),
  status: fc.constantFrom(...Contact.statuses),
  tags: fc.array(fc.string({ minLength: 1 })),
  profile_uid: fc.uuid(),
  monitoring: fc.boolean()
})

/** Text shaped as the store holds it: hex ids, digit strings for numbers, any text elsewhere. */
const storedText = (field: Arbitraries.MessageTextField): fc.Arbitrary<string> => {
  switch (field) {
    case "message_id":
      return fc.stringMatching(/^[0-9a-f]{28}$/)
    case "country":
      return digits(1, 3)
    case "msisdn":
      return digits(8, 15)
    case "message":
      return fc.string()
    default:
      return fc.string({ minLength: 1 })
  }
}

const stored = Arbitraries.storedMessage(storedText)

const contactKeys = [
  "msisdn", "phone_number", "first_name", "last_name", "full_name", "country_code", "added_from", "status", "tags", "profile_uid", "monitoring"
]
const encodeContact = Schema.encodeUnknownSync(Schema.toType(Contact.Contact))
const encodeMessage = Schema.encodeUnknownSync(Schema.toType(Message.Message))
const zone = Result.getOrThrow(CreatedOn.zone("Europe/London"))

describe("answers written without the Schema", () => {
  it("a contact is what its Schema encodes, whatever else the store's object carries", () => {
    fc.assert(fc.property(contact, fc.dictionary(fc.string().filter((k) => !contactKeys.includes(k) && k !== "__proto__"), fc.jsonValue()), (value, extra) => {
      const response = WireResponse.contact({ ...extra, ...value })
      expect(response.status).toBe(200)
      expect(bodyOf(response)).toStrictEqual(encodeContact(value))
    }))
  })

  it("a sent message is what its Schema encodes, with the status given", () => {
    fc.assert(fc.property(stored, (message) => {
      const wire = Messaging.toWire(message, zone)
      const response = WireResponse.message(wire, 201)
      expect(response.status).toBe(201)
      expect(bodyOf(response)).toStrictEqual(encodeMessage(wire))
    }))
  })

  it("keeps exactly the contact's fields (example)", () => {
    const value: Contact.Contact = {
      msisdn: "447400123456", phone_number: "7400123456", first_name: "Ada", last_name: "Lovelace", full_name: "Ada Lovelace",
      country_code: "44", added_from: "API", status: "SUBSCRIBED", tags: ["vip"], profile_uid: "p-1", monitoring: false
    }
    const body = bodyOf(WireResponse.contact({ ...value, internal_row_id: 7 } as Contact.Contact))
    expect(Object.keys(body as object)).toEqual(contactKeys)
    expect(body).toStrictEqual(value)
  })
})
