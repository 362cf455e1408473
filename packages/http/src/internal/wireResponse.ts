/**
 * Answers that are already in their wire shape, written straight as JSON: the hot endpoints skip
 * re-encoding core's value through the endpoint's success Schema, which only checked what core built.
 */
import type { Contact, Message } from "@smsbook/core"
import { HttpServerResponse } from "effect/http"

/** The JSON answer `body` with `status`, as `HttpApiBuilder` writes an encoded success. */
const json = (body: unknown, status: number): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(JSON.stringify(body), { status, contentType: "application/json" })

/**
 * A contact as the wire carries it: exactly the interface's fields, as the Schema's encoding would
 * keep them (a store that hands back more never leaks it).
 */
export const contactFields = (contact: Contact.Contact): Contact.Contact => ({
  msisdn: contact.msisdn,
  phone_number: contact.phone_number,
  first_name: contact.first_name,
  last_name: contact.last_name,
  full_name: contact.full_name,
  country_code: contact.country_code,
  added_from: contact.added_from,
  status: contact.status,
  tags: contact.tags,
  profile_uid: contact.profile_uid,
  monitoring: contact.monitoring
})

/** `GET /contacts/:msisdn`'s answer. */
export const contact = (value: Contact.Contact) => json(contactFields(value), 200)

/** A message answer: core's `toWire` already built exactly the interface's fields. */
export const message = (value: Message.Message, status: number) => json(value, status)
