/** Contact-book work that takes more than one use case: a contact created with its tags, in one transaction. */
import { ContactBook, ContactStore } from "@smsbook/core"
import { Effect } from "effect"

/** Creates the contact, then gives it `tags` when there are any; both or neither are written. */
export const add = Effect.fnUntraced(function*(
  msisdn: string,
  fields: Readonly<Record<string, string>>,
  tags: ReadonlyArray<string> | undefined
) {
  const store = yield* ContactStore.ContactStore
  return yield* store.transaction(Effect.gen(function*() {
    const created = yield* ContactBook.createContact(msisdn, fields)
    return tags === undefined ? created : yield* ContactBook.editContact(created.msisdn, { tags })
  }))
})

