/**
 * A model of the contact book, written apart from the use cases (trim, join, normalise) so a mistake
 * shared with them cannot hide: generated create, edit and delete calls are checked against it one by one.
 */
import { expect } from "@effect/vitest"
import { type Contact, ContactBook } from "@smsbook/core"
import { Effect } from "effect"
import * as fc from "fast-check"
import * as Fixtures from "../Fixtures.ts"
import * as Observe from "./Observe.ts"

const modelFullName = (first: string, last: string) => [first.trim(), last.trim()].filter((s) => s !== "").join(" ")

const modelTags = (tags: ReadonlyArray<string>): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (const tag of tags.map((t) => t.trim())) {
    if (tag !== "" && !out.some((kept) => kept.toLowerCase() === tag.toLowerCase())) out.push(tag)
  }
  return out
}

/** A call on the contact book. */
export type Op =
  | { readonly op: "create"; readonly n: number; readonly first: string; readonly last: string }
  | {
    readonly op: "edit"
    readonly n: number
    readonly first: string | undefined
    readonly last: string | undefined
    readonly tags: ReadonlyArray<string> | undefined
    readonly monitoring: boolean | undefined
  }
  | { readonly op: "delete"; readonly n: number }

export const nameArb = fc.string({ unit: fc.constantFrom("a", "B", " ", "%", "_", "\u00e9", "\u0436"), maxLength: 6 })
const numberArb = fc.integer({ min: 0, max: 5 })

/** Calls on six numbers, with names and tags that need trimming and case folding. */
export const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant("create" as const), n: numberArb, first: nameArb, last: nameArb }),
  fc.record({
    op: fc.constant("edit" as const),
    n: numberArb,
    first: fc.option(nameArb, { nil: undefined }),
    last: fc.option(nameArb, { nil: undefined }),
    tags: fc.option(fc.array(fc.constantFrom("news", "NEWS", " sport ", "", "vip"), { maxLength: 4 }), { nil: undefined }),
    monitoring: fc.option(fc.boolean(), { nil: undefined })
  }),
  fc.record({ op: fc.constant("delete" as const), n: numberArb })
)

const editBody = (op: Extract<Op, { op: "edit" }>) => ({
  ...(op.first === undefined ? {} : { first_name: op.first }),
  ...(op.last === undefined ? {} : { last_name: op.last }),
  ...(op.tags === undefined ? {} : { tags: op.tags }),
  ...(op.monitoring === undefined ? {} : { monitoring: op.monitoring })
})

/** Makes `op` through the use cases, checks the answer against `model`, then moves the model on. */
export const applyOp = Effect.fnUntraced(function*(model: Map<string, Contact.Contact>, op: Op) {
  const key = Fixtures.msisdn(op.n)
  const known = model.get(key)
  switch (op.op) {
    case "create": {
      if (known !== undefined) {
        expect(yield* Observe.refused(ContactBook.createContact(key, { first_name: op.first, last_name: op.last }), "ContactExists")).toMatchObject({
          msisdn: key
        })
        return
      }
      const created = yield* ContactBook.createContact(key, { first_name: op.first, last_name: op.last })
      expect(created).toMatchObject({
        msisdn: key,
        first_name: op.first.trim(),
        last_name: op.last.trim(),
        full_name: modelFullName(op.first, op.last),
        status: "SUBSCRIBED",
        added_from: "API",
        tags: [],
        monitoring: false
      })
      model.set(key, created)
      return
    }
    case "edit": {
      if (known === undefined) {
        expect(yield* Observe.refused(ContactBook.editContact(key, editBody(op)), "ContactNotFound")).toMatchObject({ msisdn: key })
        return
      }
      // What the edit sends replaces what was known, names trimmed as a create stores them; the full name and the
      // tags are then worked out again (known tags are already the model's, which it leaves as they are).
      const sent = {
        ...known,
        ...editBody(op),
        first_name: op.first?.trim() ?? known.first_name,
        last_name: op.last?.trim() ?? known.last_name
      }
      const expected: Contact.Contact = { ...sent, full_name: modelFullName(sent.first_name, sent.last_name), tags: modelTags(sent.tags) }
      expect(yield* ContactBook.editContact(key, editBody(op))).toEqual(expected)
      model.set(key, expected)
      return
    }
    case "delete": {
      if (known === undefined) {
        expect(yield* Observe.refused(ContactBook.deleteContact(key), "ContactNotFound")).toMatchObject({ msisdn: key })
        return
      }
      expect(yield* ContactBook.deleteContact(key)).toEqual({ msisdn: key, deleted: true })
      model.delete(key)
      return
    }
  }
})
