/**
 * Contract: creating, reading, editing and deleting one contact (4.5 to 4.8): the wire shape,
 * the refusals by field, and that a refusal leaves the store as it was.
 */
import { describe, expect } from "@effect/vitest"
import { ContactBook, ContactStore } from "@smsbook/core"
import { Effect } from "effect"
import * as Fixtures from "../Fixtures.ts"
import type * as Harness from "./Harness.ts"
import * as Observe from "./Observe.ts"

export const register = ({ test }: Harness.Harness): void => {
  describe("POST /contacts/:msisdn (4.6)", () => {
    test("creates the contact the interface describes: API, no tags, not monitoring, SUBSCRIBED, names and keys filled", () =>
      Effect.gen(function*() {
        const created = yield* ContactBook.createContact(Fixtures.msisdn(123456), { first_name: " Ann ", last_name: "Lee" })
        expect(Observe.sortedKeys(created)).toEqual(Observe.contactKeys)
        // 447400123456, split 44 / 7400123456, "Ann Lee", API, SUBSCRIBED, no tags, not monitoring; the key is new.
        const { profile_uid: _, ...described } = Fixtures.contact(123456, { first_name: "Ann", last_name: "Lee" })
        expect(created).toMatchObject(described)
        expect(created.profile_uid).toMatch(/^[0-9a-f]+$/)
        expect(yield* ContactBook.getContact("447400123456")).toEqual(created)
        expect(yield* Observe.allContacts).toEqual([created])
      }))

    test("accepts the path as a number and a body that agrees with it (msisdn in any notation, country_code with +)", () =>
      Effect.gen(function*() {
        const a = yield* ContactBook.createContact(447400000001, { msisdn: 447400000001, country_code: "44" })
        const b = yield* ContactBook.createContact("447400000002", { msisdn: "+44 7400 000002", country_code: "+44" })
        // The interface's `misdn` spelling reads as msisdn, alone or beside it.
        const c = yield* ContactBook.createContact("447400000003", { misdn: "+447400000003" })
        const d = yield* ContactBook.createContact("447400000004", { misdn: "447400000004", msisdn: "+44 7400 000004" })
        expect([a.msisdn, b.msisdn, c.msisdn, d.msisdn]).toEqual([Fixtures.msisdn(1), Fixtures.msisdn(2), Fixtures.msisdn(3), Fixtures.msisdn(4)])
        expect(a.full_name).toBe("")
        expect(a.profile_uid).not.toBe(b.profile_uid)
      }))

    test("full_name joins the names with one space and skips a blank one", () =>
      Effect.gen(function*() {
        expect((yield* ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Ann" })).full_name).toBe("Ann")
        expect((yield* ContactBook.createContact(Fixtures.msisdn(2), { last_name: " Lee " })).full_name).toBe("Lee")
        expect((yield* ContactBook.createContact(Fixtures.msisdn(3), { first_name: "  ", last_name: "" })).full_name).toBe("")
      }))

    test("a status in the body is refused, whatever its value, and nothing is created", () =>
      Effect.gen(function*() {
        for (const status of ["SUBSCRIBED", "CANCELLED", ""]) {
          expect(yield* Observe.refused(ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Ann", status }), "InvalidField")).toMatchObject({
            field: "status"
          })
        }
        expect(yield* Observe.allContacts).toEqual([])
      }))

    test("a body msisdn or country_code that contradicts the path is refused, and nothing is created", () =>
      Effect.gen(function*() {
        expect(yield* Observe.refused(ContactBook.createContact(Fixtures.msisdn(1), { msisdn: Fixtures.msisdn(2) }), "InvalidField")).toMatchObject({
          field: "msisdn"
        })
        for (const body of [{ misdn: Fixtures.msisdn(2) }, { msisdn: Fixtures.msisdn(1), misdn: Fixtures.msisdn(2) }, { misdn: null }]) {
          expect(yield* Observe.refused(ContactBook.createContact(Fixtures.msisdn(1), body), "InvalidField")).toMatchObject({
            field: "misdn"
          })
        }
        expect(yield* Observe.refused(ContactBook.createContact(Fixtures.msisdn(1), { country_code: "33" }), "InvalidField")).toMatchObject({
          field: "country_code"
        })
        expect(yield* Observe.allContacts).toEqual([])
      }))

    test("an existing msisdn is refused with ContactExists and the stored contact is untouched", () =>
      Effect.gen(function*() {
        const first = yield* ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Ann" })
        expect(yield* Observe.refused(ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Second" }), "ContactExists")).toMatchObject({
          msisdn: Fixtures.msisdn(1)
        })
        expect(yield* ContactBook.getContact(Fixtures.msisdn(1))).toEqual(first)
      }))

    test("a path that is not a phone number is refused with InvalidMsisdn", () =>
      Effect.gen(function*() {
        yield* Observe.refused(ContactBook.createContact("12", {}), "InvalidMsisdn")
        yield* Observe.refused(ContactBook.createContact("447700900123", {}), "InvalidMsisdn")
        expect(yield* Observe.allContacts).toEqual([])
      }))
  })

  // -------------------------------------------------------------------------------------------
  describe("GET, PUT, DELETE /contacts/:msisdn (4.5, 4.7, 4.8)", () => {
    test("get reads the path in any notation; an absent contact is ContactNotFound", () =>
      Effect.gen(function*() {
        const created = yield* ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Ann" })
        expect(yield* ContactBook.getContact("+44 7400 000001")).toEqual(created)
        expect(yield* ContactBook.getContact(447400000001)).toEqual(created)
        expect(yield* Observe.refused(ContactBook.getContact(Fixtures.msisdn(2)), "ContactNotFound")).toMatchObject({ msisdn: Fixtures.msisdn(2) })
      }))

    test("edit changes names, tags and monitoring, recomputes full_name, keeps the rest, and stores it", () =>
      Effect.gen(function*() {
        const created = yield* ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Ann", last_name: "Lee" })
        const edited = yield* ContactBook.editContact(Fixtures.msisdn(1), {
          first_name: "Anna",
          tags: [" news ", "NEWS", "", "vip"],
          monitoring: "1"
        })
        expect(edited).toEqual({
          ...created,
          first_name: "Anna",
          full_name: "Anna Lee",
          tags: ["news", "vip"],
          monitoring: true
        })
        expect(yield* ContactBook.getContact(Fixtures.msisdn(1))).toEqual(edited)
        const renamed = yield* ContactBook.editContact(Fixtures.msisdn(1), { last_name: "" })
        expect(renamed).toMatchObject({ first_name: "Anna", last_name: "", full_name: "Anna", tags: ["news", "vip"] })
        expect(yield* ContactBook.editContact(Fixtures.msisdn(1), {})).toEqual(renamed)
      }))

    test("edit refuses every non-editable field by name and leaves the contact untouched", () =>
      Effect.gen(function*() {
        const created = yield* ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Ann" })
        const fields = {
          status: "CANCELLED",
          full_name: "X Y",
          msisdn: Fixtures.msisdn(1),
          phone_number: "7400000001",
          country_code: "44",
          added_from: "WEB_FORM",
          profile_uid: "ff"
        }
        for (const [field, value] of Object.entries(fields)) {
          expect(yield* Observe.refused(ContactBook.editContact(Fixtures.msisdn(1), { first_name: "Second", [field]: value }), "InvalidField")).toMatchObject({
            field
          })
        }
        expect(yield* Observe.refused(ContactBook.editContact(Fixtures.msisdn(1), { monitoring: "yes" }), "InvalidField")).toMatchObject({
          field: "monitoring"
        })
        expect(yield* ContactBook.getContact(Fixtures.msisdn(1))).toEqual(created)
      }))

    test("edit refuses a new tag over 255 characters by its index, and keeps one the book held from before the limit", () =>
      Effect.gen(function*() {
        const long = "t".repeat(300)
        const ann = yield* ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Ann" })
        const refused = yield* Observe.refused(ContactBook.editContact(Fixtures.msisdn(1), { tags: ["news", long] }), "InvalidField")
        expect(refused).toMatchObject({ field: "tags.1" })
        expect(yield* ContactBook.getContact(Fixtures.msisdn(1))).toEqual(ann)
        // A book written before the limit: the longer tag stays, and sending it back with another is no new tag.
        const store = yield* ContactStore.ContactStore
        yield* store.update({ ...ann, tags: [long] })
        expect((yield* ContactBook.editContact(Fixtures.msisdn(1), { tags: [long.toUpperCase(), "vip"] })).tags).toEqual([long.toUpperCase(), "vip"])
      }))

    test("edit of an absent contact is ContactNotFound and creates nothing", () =>
      Effect.gen(function*() {
        expect(yield* Observe.refused(ContactBook.editContact(Fixtures.msisdn(9), { first_name: "Ann" }), "ContactNotFound")).toMatchObject({
          msisdn: Fixtures.msisdn(9)
        })
        expect(yield* Observe.allContacts).toEqual([])
      }))

    test("delete answers { msisdn, deleted: true }, removes the contact, and a second delete is ContactNotFound", () =>
      Effect.gen(function*() {
        yield* ContactBook.createContact(Fixtures.msisdn(1), {})
        const kept = yield* ContactBook.createContact(Fixtures.msisdn(2), {})
        expect(yield* ContactBook.deleteContact("+44 7400 000001")).toEqual({ msisdn: Fixtures.msisdn(1), deleted: true })
        yield* Observe.refused(ContactBook.getContact(Fixtures.msisdn(1)), "ContactNotFound")
        expect(yield* Observe.refused(ContactBook.deleteContact(Fixtures.msisdn(1)), "ContactNotFound")).toMatchObject({ msisdn: Fixtures.msisdn(1) })
        expect(yield* Observe.allContacts).toEqual([kept])
        const again = yield* ContactBook.createContact(Fixtures.msisdn(1), { first_name: "Back" })
        expect(again.first_name).toBe("Back")
      }))
  })
}
