/**
 * What the contract tests look at: refusals by tag, every contact and message through the use cases,
 * what the carrier was handed, and the exact key sets of the wire shapes.
 */
import { Carrier, type Contact, ContactBook, HttpDate, Messaging } from "@smsbook/core"
import { DateTime, Effect, Result } from "effect"
import * as Fixtures from "../Fixtures.ts"

const hasTag = <E extends { readonly _tag: string }, T extends E["_tag"]>(
  error: E,
  tag: T
): error is Extract<E, { readonly _tag: T }> => error._tag === tag

/** Runs `effect` expecting it to fail with `tag`; yields the error for its fields to be checked. */
export const refused = <A, E extends { readonly _tag: string }, R, T extends E["_tag"]>(
  effect: Effect.Effect<A, E, R>,
  tag: T
): Effect.Effect<Extract<E, { readonly _tag: T }>, never, R> =>
  Effect.flatMap(Effect.result(effect), (result) => {
    if (Result.isSuccess(result)) {
      return Effect.die(new Error(`expected ${tag}, got a success: ${JSON.stringify(result.success)}`))
    }
    const error = result.failure
    return hasTag(error, tag)
      ? Effect.succeed(error)
      : Effect.die(new Error(`expected ${tag}, got ${error._tag}: ${JSON.stringify(error)}`))
  })

export const sortedKeys = (value: object): ReadonlyArray<string> => Object.keys(value).sort()

export const withKey = (keys: ReadonlyArray<string>, key: string): ReadonlyArray<string> => [...keys, key].sort()

/** The keys of a full contact (4.4, 4.5), sorted. */
export const contactKeys = [
  "msisdn", "phone_number", "country_code", "first_name", "last_name", "full_name",
  "status", "added_from", "tags", "profile_uid", "monitoring"
].sort()

/** The keys of the answer to `send_to_contact` without an id (4.2), sorted. */
export const individualKeys = [
  "message_id", "short_code", "country", "msisdn", "direction", "status", "message", "type",
  "total_recipients", "sent_count", "error_count", "total_monitors", "is_scheduled", "is_billable",
  "created_on", "created_by"
].sort()

/** The keys of the answer to `send` without an id (4.3): it omits message_id, msisdn, country and created_by. */
export const groupResponseKeys = individualKeys.filter((key) => !["message_id", "msisdn", "country", "created_by"].includes(key))

/** The HTTP-date of the epoch + `offset` milliseconds. */
export const httpDate = (offset: number): string => HttpDate.format(DateTime.makeUnsafe(Fixtures.epoch + offset))

/** The full contacts of a list (a list without `shortResults` has only those). */
export const fullContacts = (list: ReadonlyArray<Contact.Contact | Contact.ShortContact>): ReadonlyArray<Contact.Contact> =>
  list.filter((contact): contact is Contact.Contact => "profile_uid" in contact)

export const allContacts = Effect.map(ContactBook.listContacts({ Limit: "1000" }), fullContacts)
export const allMessages = Messaging.listMessages({ Limit: "1000" })

/** The parts the carrier was handed for one message. */
export const partsOf = (messageId: string) =>
  Effect.map(Effect.flatMap(Carrier.Outbox, (outbox) => outbox.parts), (parts) =>
    parts.filter((part) => part.message_id === messageId))

/** The texts each number was handed for a message, parts joined in order. */
export const textsByMsisdn = (parts: ReadonlyArray<Carrier.Part>): ReadonlyMap<string, string> => {
  const byNumber = new Map<string, Array<Carrier.Part>>()
  for (const part of parts) byNumber.set(part.msisdn, [...(byNumber.get(part.msisdn) ?? []), part])
  return new Map([...byNumber].map(([number, own]) => [number, [...own].sort((a, b) => a.part - b.part).map((p) => p.text).join("")]))
}

/** A UCS-2 text of two SMS parts once prefixed (86 UTF-16 units). */
export const twoPartText = "\u0436".repeat(80)
