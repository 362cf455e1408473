import { Fixtures, Results } from "@smsbook/testing"
import { Result, Schema } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Contact from "../src/Contact.ts"
import * as Message from "../src/Message.ts"
import * as Wire from "../src/Wire.ts"
import { exampleNumbers } from "./arbitraries.ts"

const decodeContact = Wire.decoder(Contact.Contact)
const decodeShort = Wire.decoder(Contact.ShortContact)
const decodeMessage = Wire.decoder(Message.Message)

const ok = Results.success
const refusal = Results.failure

/** The sample decodes to itself with `read` in place of the fields it wrote another way. */
const expectReadAs = <A>(
  decode: (input: unknown) => Result.Result<A, unknown>,
  sample: Readonly<Record<string, unknown>>,
  read: Readonly<Record<string, unknown>>
) => expect(ok(decode(sample))).toEqual({ ...sample, ...read })

// Shaped as the interface's samples are described (section 2): numbers where the tables say text,
// the subscribed status spelt SUSCRIBED, booleans as 0/1 or true/false, `type` 1 on a group answer.
const contactSample = {
  msisdn: 447400123456,
  phone_number: 7400123456,
  first_name: "Ann",
  last_name: "Lee",
  full_name: "Ann Lee",
  country_code: 44,
  added_from: "API",
  status: "SUSCRIBED",
  tags: [],
  profile_uid: "5f2c9e0a7b1d4c3e8f6a2b0c9d8e7f6a",
  monitoring: false
}

const individualSample = {
  message_id: "0191b2c3d4e5a1b2c3d4e5f6a7b8",
  id: 12345,
  short_code: 60777,
  country: "44",
  msisdn: 447400123456,
  direction: "MT",
  status: "READY",
  message: "Hello",
  total_recipients: 1,
  sent_from: "API",
  sent_count: 0,
  error_count: 0,
  total_monitors: 0,
  is_scheduled: 0,
  is_billable: "1",
  created_on: "2026-11-21 10:15:00",
  created_by: "first",
  type: "1"
}

const groupAnswerSample = {
  short_code: "60777",
  direction: "MT",
  status: "PENDING",
  message: "Big news",
  ...Fixtures.unsent,
  created_on: "2026-11-21 10:15:00",
  type: 1
}

describe("Contact wire shape", () => {
  it("reads the sample: numeric msisdn/phone_number/country_code as text, SUSCRIBED as SUBSCRIBED", () => {
    expectReadAs(decodeContact, contactSample, { msisdn: "447400123456", phone_number: "7400123456", country_code: "44", status: "SUBSCRIBED" })
  })

  it("reads the reduced form of shortResults", () => {
    expect(ok(decodeShort({ msisdn: 447400123456, first_name: "Ann", last_name: "Lee", status: "SUSCRIBED" }))).toEqual({
      msisdn: "447400123456",
      first_name: "Ann",
      last_name: "Lee",
      status: "SUBSCRIBED"
    })
  })

  it("law: monitoring reads every documented and sampled spelling of a boolean", () => {
    const spellings: ReadonlyArray<readonly [unknown, boolean]> = [
      [true, true], [false, false], [1, true], [0, false], ["1", true], ["0", false], ["true", true], ["false", false]
    ]
    fc.assert(fc.property(fc.constantFrom(...spellings), ([value, expected]) => {
      expect(ok(decodeContact({ ...contactSample, monitoring: value })).monitoring).toBe(expected)
    }))
  })

  it("refuses what is no contact, naming the field", () => {
    expect(refusal(decodeContact({ ...contactSample, status: "ACTIVE" }))).toMatchObject({ _tag: "InvalidField", field: "status" })
    expect(refusal(decodeContact({ ...contactSample, monitoring: "yes" }))).toMatchObject({ field: "monitoring" })
    expect(refusal(decodeContact({ ...contactSample, added_from: "IMPORT" }))).toMatchObject({ field: "added_from" })
    const { msisdn: _, ...noMsisdn } = contactSample
    expect(refusal(decodeContact(noMsisdn))).toMatchObject({ field: "msisdn" })
  })
})

describe("Message wire shape", () => {
  it("reads the individual sample: numeric id as text, 0/\"1\" flags, type \"1\", sent_from as text", () => {
    expectReadAs(decodeMessage, individualSample, {
      id: "12345",
      short_code: "60777",
      msisdn: "447400123456",
      is_scheduled: false,
      is_billable: true,
      type: 1
    })
  })

  it("reads a group send's answer, without message_id, msisdn, country or created_by", () => {
    const decoded = ok(decodeMessage(groupAnswerSample))
    expect(decoded).toEqual(groupAnswerSample)
    for (const key of ["message_id", "msisdn", "country", "created_by"]) expect(decoded).not.toHaveProperty(key)
  })

  it("reads sent_from as the documented list too", () => {
    expect(ok(decodeMessage({ ...individualSample, sent_from: ["447400123456"] })).sent_from).toEqual(["447400123456"])
  })

  it("refuses a created_on not shaped YYYY-MM-DD HH:MM:SS, an unknown status, type or direction", () => {
    expect(refusal(decodeMessage({ ...individualSample, created_on: "2026-11-21T10:15:00Z" }))).toMatchObject({ field: "created_on" })
    expect(refusal(decodeMessage({ ...individualSample, status: "FAILED" }))).toMatchObject({ field: "status" })
    expect(refusal(decodeMessage({ ...individualSample, type: 3 }))).toMatchObject({ field: "type" })
    expect(refusal(decodeMessage({ ...individualSample, direction: "IN" }))).toMatchObject({ field: "direction" })
  })
})

describe("send bodies", () => {
  it("send_to_contact reads the table's misdn and the sample's msisdn; both, when they differ, are refused", () => {
    expect(ok(Message.decodeSendToContactBody({ misdn: 447400123456, message: "Hi", id: 7 }))).toEqual({
      msisdn: "447400123456",
      message: "Hi",
      id: "7"
    })
    expect(ok(Message.decodeSendToContactBody({ msisdn: "447400123456", message: "Hi" })).msisdn).toBe("447400123456")
    expect(ok(Message.decodeSendToContactBody({ msisdn: "447400123456", misdn: 447400123456, message: "Hi" })).msisdn)
      .toBe("447400123456")
    expect(refusal(Message.decodeSendToContactBody({ msisdn: "447400123456", misdn: "447400000000", message: "Hi" })))
      .toMatchObject({ field: "misdn" })
    expect(refusal(Message.decodeSendToContactBody({ msisdn: "447400123456" }))).toMatchObject({ field: "message" })
  })

  it("misdn and msisdn naming one number however written agree; naming two, they are refused", () => {
    expect(ok(Message.decodeSendToContactBody({ misdn: "+44 7400 123456", msisdn: 447400123456, message: "Hi" })).msisdn)
      .toBe("+44 7400 123456")
    const numbers = fc.constantFrom(...exampleNumbers.map((example) => example.e164))
    fc.assert(fc.property(numbers, fc.constantFrom("+", "+ ", ""), (e164, plus) => {
      const body = { msisdn: e164, misdn: plus + e164.slice(0, 3) + " " + e164.slice(3), message: "Hi" }
      expect(Result.isSuccess(Message.decodeSendToContactBody(body))).toBe(true)
    }))
    fc.assert(fc.property(numbers, numbers, (a, b) => {
      fc.pre(a !== b)
      expect(refusal(Message.decodeSendToContactBody({ msisdn: a, misdn: `+${b}`, message: "Hi" }))).toMatchObject({ field: "misdn" })
    }))
  })

  it("law: a create body with any contact field it does not take (status, tags, monitoring, the platform's) is refused by that name", () => {
    const taken = ["msisdn", "country_code", "first_name", "last_name"]
    const others = Object.keys(Contact.Contact.fields).filter((field) => !taken.includes(field))
    expect(others.sort()).toEqual(["added_from", "full_name", "monitoring", "phone_number", "profile_uid", "status", "tags"])
    fc.assert(fc.property(fc.constantFrom(...others), fc.jsonValue().filter((value) => value !== null && value !== undefined), (field, value) => {
      expect(refusal(Contact.decodeCreateBody({ first_name: "Ann", [field]: value }))).toMatchObject({ field })
    }))
    expect(refusal(Contact.decodeCreateBody({ tags: ["vip"] })).reason).toContain("PUT /contacts/:msisdn")
  })

  it("a contact create body refuses status by name; an edit body refuses every platform field by name", () => {
    expect(refusal(Contact.decodeCreateBody({ first_name: "Ann", status: "SUBSCRIBED" }))).toMatchObject({ field: "status" })
    expect(ok(Contact.decodeCreateBody({ msisdn: 447400123456, country_code: 44, first_name: "Ann" }))).toEqual({
      msisdn: "447400123456",
      country_code: "44",
      first_name: "Ann"
    })
    for (const field of ["msisdn", "misdn", "phone_number", "full_name", "country_code", "added_from", "status", "profile_uid"]) {
      expect(refusal(Contact.decodeEditBody({ first_name: "Ann", [field]: "x" }))).toMatchObject({ field })
    }
    expect(ok(Contact.decodeEditBody({ first_name: "Ann", monitoring: "0", tags: ["a"], unknown: 1 }))).toEqual({
      first_name: "Ann",
      monitoring: false,
      tags: ["a"]
    })
  })
})

describe("Wire.Text", () => {
  const decode = Wire.decoder(Schema.Struct({ id: Wire.Text }))

  it("law: a safe integer becomes its plain decimal digits (a JSON-number msisdn or id keeps every digit)", () => {
    fc.assert(fc.property(fc.maxSafeInteger(), (n) => {
      expect(decode({ id: n })).toEqual(Result.succeed({ id: BigInt(n).toString() }))
    }))
  })

  it("law: a number that is not a safe integer is refused, naming the field (its text would not be the client's)", () => {
    const inexact = fc.oneof(
      fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(2 ** 53, -(2 ** 53), 9007199254740993, 1e21, 1e300)
    )
    fc.assert(fc.property(inexact, (n) => {
      const refused = decode({ id: n })
      expect(Result.isFailure(refused)).toBe(true)
      if (Result.isFailure(refused)) expect(refused.failure).toMatchObject({ field: "id", value: String(n) })
    }))
  })

  it("refuses a value nested deeper than the stack allows, naming its field, without throwing", () => {
    let deep: unknown = []
    for (let depth = 0; depth < 200_000; depth++) deep = [deep]
    expect(decode({ id: deep })).toEqual(
      Result.fail(expect.objectContaining({ field: "id", value: "an array nested too deeply to show" }))
    )
  })

  it("refuses a value that is not JSON at all (a BigInt, a cycle), saying so, without throwing", () => {
    const cycle: Record<string, unknown> = {}
    cycle["self"] = cycle
    for (const value of [{ a: 1n }, cycle]) {
      expect(decode({ id: value })).toEqual(
        Result.fail(expect.objectContaining({ field: "id", value: "a value that cannot be shown as JSON" }))
      )
    }
  })

  it("refuses a NUL in a text field it reads, naming the first such field (no store keeps one); unknown keys stay ignored", () => {
    const body = Wire.decoder(Schema.Struct({ id: Schema.optionalKey(Wire.Text), tags: Schema.optionalKey(Schema.Array(Schema.String)) }))
    expect(body({ id: "a\u0000" })).toEqual(Result.fail(expect.objectContaining({ field: "id", value: "a\\u0000" })))
    expect(body({ tags: ["ok", "x\u0000"] })).toEqual(Result.fail(expect.objectContaining({ field: "tags.1" })))
    expect(body({ id: "a\u0000", tags: ["x\u0000"] })).toEqual(Result.fail(expect.objectContaining({ field: "id" })))
    expect(body({ id: "a", tags: ["b"], other: "\u0000" })).toEqual(Result.succeed({ id: "a", tags: ["b"] }))
  })

  it("refuses a lone surrogate in a text field it reads (stores keep U+FFFD: the answer would not be what is stored)", () => {
    const body = Wire.decoder(Schema.Struct({ id: Schema.optionalKey(Wire.Text), tags: Schema.optionalKey(Schema.Array(Schema.String)) }))
    expect(body({ tags: ["ok", "a\ud800"] })).toEqual(
      Result.fail(expect.objectContaining({ field: "tags.1", value: "a\ufffd", reason: "holds a lone surrogate: it is not valid Unicode" }))
    )
    fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => {
      const storable = text.isWellFormed() && !text.includes("\u0000")
      expect(Result.isSuccess(body({ id: text }))).toBe(storable)
      expect(Result.isSuccess(body({ tags: [text] }))).toBe(storable)
    }))
  })

  it("reads a phone number sent as a JSON number only when it is positive", () => {
    const body = Wire.decoder(Schema.Struct({ msisdn: Wire.PhoneText }))
    expect(body({ msisdn: 447400123456 })).toEqual(Result.succeed({ msisdn: "447400123456" }))
    expect(body({ msisdn: "-447400123456" })).toEqual(Result.succeed({ msisdn: "-447400123456" }))
    for (const msisdn of [-447400123456, 0, 1.5, 2 ** 53]) expect(body({ msisdn })).toEqual(Result.fail(expect.objectContaining({ field: "msisdn" })))
  })

  it("keeps text as it is", () => {
    fc.assert(fc.property(fc.string(), (text) => {
      expect(decode({ id: text })).toEqual(Result.succeed({ id: text }))
    }))
  })
})

describe("Standard Schema", () => {
  it("every wire schema validates through the Standard Schema interface", async () => {
    const schemas = [
      Contact.Contact,
      Contact.ShortContact,
      Contact.CreateBody,
      Contact.EditBody,
      Message.Message,
      Message.SendToContactBody,
      Message.SendToGroupsBody
    ]
    for (const schema of schemas) expect(schema["~standard"].version).toBe(1)
    const result = await Message.SendToContactBody["~standard"].validate({ msisdn: 447400123456, message: "hi", id: 7 })
    expect(result).toEqual({ value: { msisdn: "447400123456", message: "hi", id: "7" } })
    const refused = await Message.SendToGroupsBody["~standard"].validate({ tags: "news" })
    expect(refused.issues?.length ?? 0).toBeGreaterThan(0)
  })
})
