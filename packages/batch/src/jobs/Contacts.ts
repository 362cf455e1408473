/**
 * Contact-book work that takes more than one use case: a contact created with tags, and tags added
 * to or removed from what a contact has, each in one transaction.
 */
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

/**
 * The tags a contact ends with: `set` replaces them when given; then `added` are added (once,
 * case-insensitively) and `removed` taken away (case-insensitively).
 */
export const nextTags = (
  current: ReadonlyArray<string>,
  change: { readonly set?: ReadonlyArray<string> | undefined; readonly added: ReadonlyArray<string>; readonly removed: ReadonlyArray<string> }
): ReadonlyArray<string> => {
  const removed = new Set(change.removed.map((tag) => tag.toLowerCase()))
  const out: Array<string> = []
  const seen = new Set<string>()
  for (const tag of [...(change.set ?? current), ...change.added]) {
    const key = tag.toLowerCase()
    if (seen.has(key) || removed.has(key)) continue
    seen.add(key)
    out.push(tag)
  }
  return out
}

/** Edits a contact's fields and tags (set, added, removed) in one transaction, reading its tags under it. */
export const edit = Effect.fnUntraced(function*(
  msisdn: string,
  fields: Readonly<Record<string, string>>,
  tags: { readonly set?: ReadonlyArray<string> | undefined; readonly added: ReadonlyArray<string>; readonly removed: ReadonlyArray<string> }
) {
  const store = yield* ContactStore.ContactStore
  const touchesTags = tags.set !== undefined || tags.added.length > 0 || tags.removed.length > 0
  return yield* store.transaction(Effect.gen(function*() {
    const current = touchesTags ? (yield* ContactBook.getContact(msisdn)).tags : []
    return yield* ContactBook.editContact(msisdn, { ...fields, ...(touchesTags ? { tags: nextTags(current, tags) } : {}) })
  }))
})
