/**
 * The suppression list, as every store must keep it (sequential law): an opt-out binds the number,
 * deleting the contact keeps it, imports and adds of a suppressed number come in CANCELLED, and only
 * a resubscribe (START, `resubscribe`) or `forget` lifts it. Checked against a three-field model.
 */
import { ContactBook, ContactStore, Messaging, type Msisdn } from "@smsbook/core"
import { Effect, Exit, Option } from "effect"
import * as fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { type Env, type Kind, on } from "./Books.ts"

const number = "447400123456"
const key = number as Msisdn.Msisdn

type Step = "stop" | "start" | "optOut" | "resubscribe" | "delete" | "add" | "import" | "edit" | "forget"
const steps: ReadonlyArray<Step> = ["stop", "start", "optOut", "resubscribe", "delete", "add", "import", "edit", "forget"]

/** What the law says the book holds for the number. */
interface Model {
  readonly status: "SUBSCRIBED" | "CANCELLED" | undefined
  readonly suppressed: boolean
}

const next = (model: Model, step: Step): Model => {
  const { status, suppressed } = model
  const created = suppressed ? "CANCELLED" : "SUBSCRIBED"
  switch (step) {
    case "stop":
      return { status: "CANCELLED", suppressed: true }
    case "start":
      return { status: "SUBSCRIBED", suppressed: false }
    case "optOut":
      return status === undefined ? model : { status: "CANCELLED", suppressed: true }
    case "resubscribe":
      return status === undefined ? model : { status: "SUBSCRIBED", suppressed: false }
    case "delete":
      return { status: undefined, suppressed }
    case "add":
    case "import":
      return status === undefined ? { status: created, suppressed } : model
    case "edit":
      return model
    case "forget":
      return { status: undefined, suppressed: false }
  }
}

const importRow = ContactBook.upsertContacts([
  { msisdn: key, country_code: "44", phone_number: "7400123456", first_name: "Ann", last_name: "Lee", tags: ["news"] }
], { blankErases: false })

const perform = (step: Step): Effect.Effect<unknown, unknown, Env> => {
  switch (step) {
    case "stop":
      return Messaging.receiveMessage(number, "STOP")
    case "start":
      return Messaging.receiveMessage(number, "start")
    case "optOut":
      return ContactBook.optOut(number)
    case "resubscribe":
      return ContactBook.resubscribe(number)
    case "delete":
      return ContactBook.deleteContact(number)
    case "add":
      return ContactBook.createContact(number, { first_name: "Ann" })
    case "import":
      return importRow
    case "edit":
      return ContactBook.editContact(number, { last_name: "Edited" })
    case "forget":
      return ContactBook.forget(number)
  }
}

/** The model's view of the store: the number's status (absent: undefined) and whether it is suppressed. */
const observe = Effect.gen(function*() {
  const store = yield* ContactStore.ContactStore
  const contact = yield* store.get(number)
  const suppressed = (yield* store.suppressed([number])).has(number)
  return { status: Option.getOrUndefined(contact)?.status, suppressed }
})

/** Registers the suppression laws for one kind of store. */
export const run = (kind: Kind, numRuns: number): void => {
  describe(`suppression list: ${kind.name}`, () => {
    afterAll(() => kind.dispose())

    it("any sequence of STOP, START, opt-out, resubscribe, delete, add, import, edit and forget follows the model", async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.constantFrom(...steps), { minLength: 1, maxLength: 10 }), async (sequence) => {
          await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
            const [book] = yield* kind.open(1)
            if (book === undefined) return
            let model: Model = { status: undefined, suppressed: false }
            for (const step of sequence) {
              const before = model
              if (step === "import") {
                const [outcome] = yield* on(book)(importRow)
                expect(outcome?.suppressed === true).toBe(before.status === undefined && before.suppressed)
              } else {
                const exit = yield* Effect.exit(on(book)(perform(step)))
                // Refusals are the use cases' own (absent contact, existing contact), never the store's.
                if (Exit.isFailure(exit)) expect(next(model, step), `${step} refused`).toEqual(before)
              }
              model = next(model, step)
              expect(yield* on(book)(observe), `after ${sequence.join(", ")}`).toEqual(model)
            }
          })))
        }),
        { numRuns }
      )
    }, 120_000)

    it("delete then import of an opted-out number: back CANCELLED and counted as suppressed; forget lets it in", async () => {
      await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        const [book] = yield* kind.open(1)
        if (book === undefined) return
        const run = on(book)
        yield* run(ContactBook.createContact(number, {}))
        yield* run(Messaging.receiveMessage(number, "Stop"))
        yield* run(ContactBook.deleteContact(number))
        const [outcome] = yield* run(importRow)
        expect(outcome).toMatchObject({ kind: "created", optedOut: true, suppressed: true })
        expect(yield* run(ContactBook.getContact(number))).toMatchObject({ status: "CANCELLED", last_name: "Lee" })
        yield* run(ContactBook.forget(number))
        expect(yield* run(observe)).toEqual({ status: undefined, suppressed: false })
        expect(yield* run(ContactBook.createContact(number, {}))).toMatchObject({ status: "SUBSCRIBED" })
        expect(Exit.isFailure(yield* Effect.exit(run(ContactBook.forget("447400999999"))))).toBe(true)
      })))
    })
  })
}
