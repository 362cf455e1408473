/**
 * The smsbook interface (`spec/interface.md`) as one `HttpApi`: its paths, parameters and bodies,
 * core's wire schemas as bodies, the error bodies by status, and the bearer-key security. Server,
 * typed client and OpenAPI document all derive from this value.
 */
import { Contact, Message } from "@smsbook/core"
import { Predicate, Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSchema, HttpApiSecurity, OpenApi } from "effect/http-api"
import * as ErrorBody from "./ErrorBody.ts"

/**
 * API keys as `Authorization: Bearer <key>`. Without a valid key every endpoint of the interface
 * answers 401; `/health`, `/openapi.json` and `/docs` are open.
 */
export class Authorization extends HttpApiMiddleware.Service<Authorization>()("@smsbook/http/Authorization", {
  security: { bearer: HttpApiSecurity.bearer },
  error: ErrorBody.Unauthorized,
  requiredForClient: true
}) {}

/**
 * A query parameter as the wire carries it: text, read leniently by core's `Query` (names in any case). Given more
 * than once it arrives as a list, which the handlers' own reading takes when the values agree and refuses by name
 * when they differ (`INVALID_PARAMETER`), as it does for two spellings of one name.
 */
const parameter = (description: string) =>
  Schema.optional(
    Schema.Union([Schema.String, Schema.Array(Schema.String)]).annotate({
      description: `${description} Given more than once, its values must agree.`
    })
  )

const msisdnPath = {
  msisdn: Schema.String.annotate({ description: "Country code + phone number, international digits (447400123456)." })
}

/** The deletion answer (the interface shows none): the number deleted. */
export const Deleted = Schema.Struct({
  msisdn: Schema.String,
  deleted: Schema.Literal(true)
}).annotate({ identifier: "Deleted" })

/** What `GET /health` answers once the store answers. */
export const Health = Schema.Struct({
  status: Schema.Literal("ready"),
  store: Schema.String.annotate({ description: "The store kind: sqlite, postgres or memory." })
}).annotate({ identifier: "Health" })

// Answers are written strictly: their schemas are the decoded side of core's lenient wire schemas
// (text, booleans, SUBSCRIBED), so the document promises exactly what is sent.
const WireMessage = Schema.toType(Message.Message).annotate({ identifier: "Message" })
const WireContact = Schema.toType(Contact.Contact).annotate({ identifier: "Contact" })
const WireShortContact = Schema.toType(Contact.ShortContact).annotate({ identifier: "ShortContact" })

/**
 * Errors every endpoint may answer, Node's refusals before any route included: 400 (also an HTTP/1.1 request without
 * `Host`), 408 (headers that do not arrive in time), 413 (a body declared over 1 MiB, whatever the method), 431
 * (headers over 16 KiB); 503: its store cannot be reached, or the server is stopping and the request was still running
 * when its drain ended. An endpoint with a body also answers 408 to a body that does not arrive in time, and 415 to a
 * body in a content coding the server does not read ({@link bodyErrors}).
 */
const commonErrors = [
  ErrorBody.BadRequest,
  ErrorBody.RequestTimeout,
  ErrorBody.PayloadTooLarge,
  ErrorBody.HeadersTooLarge,
  ErrorBody.Internal,
  ErrorBody.Unavailable
] as const

/** The errors of an endpoint that reads a body: the common ones and 415 (`Content-Encoding` other than gzip, deflate, br). */
const bodyErrors = [...commonErrors, ErrorBody.UnsupportedMediaType] as const

export class MessagesGroup extends HttpApiGroup.make("messages")
  .add(
    HttpApiEndpoint.get("list", "/messages", {
      query: {
        start_date: parameter("Messages created from this HTTP-date on (Sat, 21 Nov 2026 10:15:00 GMT); absent: open."),
        end_date: parameter("Messages created up to this HTTP-date, its whole second included; absent: open."),
        Limit: parameter("At most this many messages, 1–1000 (default 200). Parameter names match in any case."),
        start: parameter("Offset of the first message (default 0)."),
        misdn: parameter("Only messages to or from this number (msisdn is read too); one that is no valid number is refused INVALID_MSISDN."),
        group_short_name: parameter("Only group messages sent to this tag."),
        direction: parameter("ALL (default), MT or MO.")
      },
      success: Schema.Array(WireMessage),
      error: commonErrors
    }).annotateMerge(OpenApi.annotations({ summary: "List messages" })),
    HttpApiEndpoint.post("sendToContact", "/messages/send_to_contact", {
      payload: Message.SendToContactRequest.annotate({
        identifier: "SendToContactBody",
        description: "The number as `msisdn` or `misdn` (one of them; both must name the same number); a numeric `id` reads as its decimal text."
      }),
      success: WireMessage.pipe(HttpApiSchema.status(201)),
      error: [...bodyErrors, ErrorBody.Forbidden, ErrorBody.Conflict]
    }).annotateMerge(OpenApi.annotations({ summary: "Send an individual message (READY)" })),
    HttpApiEndpoint.post("send", "/messages/send", {
      payload: Message.SendToGroupsBody.annotate({ identifier: "SendToGroupsBody" }),
      success: WireMessage.pipe(HttpApiSchema.status(202)),
      error: [...bodyErrors, ErrorBody.Conflict]
    }).annotateMerge(OpenApi.annotations({ summary: "Send a message to the contacts of tags (PENDING)" }))
  )
  .middleware(Authorization)
{}

export class ContactsGroup extends HttpApiGroup.make("contacts")
  .add(
    HttpApiEndpoint.get("list", "/contacts", {
      query: {
        Limit: parameter("At most this many contacts, 1–1000 (default 50). Parameter names match in any case."),
        Start: parameter("Offset of the first contact (default 0)."),
        Query: parameter("Contacts whose msisdn or names contain this text (any case)."),
        Status: parameter("SUBSCRIBED, INVITED, CONFIRMED or CANCELLED."),
        shortResults: parameter("1 or true: each contact reduced to msisdn, first_name, last_name, status.")
      },
      success: Schema.Union([Schema.Array(WireContact), Schema.Array(WireShortContact)]),
      error: commonErrors
    }).annotateMerge(OpenApi.annotations({ summary: "List contacts" })),
    HttpApiEndpoint.get("get", "/contacts/:msisdn", {
      params: msisdnPath,
      success: WireContact,
      error: [...commonErrors, ErrorBody.NotFound]
    }).annotateMerge(OpenApi.annotations({ summary: "Get a contact" })),
    HttpApiEndpoint.post("create", "/contacts/:msisdn", {
      params: msisdnPath,
      payload: Contact.CreateBody.annotate({
        identifier: "CreateContactBody",
        description: "The contact's other fields are refused by name: `status`, `added_from`, `profile_uid`, `full_name` and `phone_number` are the platform's, `tags` and `monitoring` are set by an edit once the contact exists."
      }),
      success: WireContact.pipe(HttpApiSchema.status(201)),
      error: [...bodyErrors, ErrorBody.Conflict]
    }).annotateMerge(OpenApi.annotations({ summary: "Create a contact (SUBSCRIBED, added_from API)" })),
    HttpApiEndpoint.put("edit", "/contacts/:msisdn", {
      params: msisdnPath,
      payload: Contact.EditBody.annotate({
        identifier: "EditContactBody",
        description: "Editable: first_name, last_name, tags, monitoring. A platform field is refused by name."
      }),
      success: WireContact,
      error: [...bodyErrors, ErrorBody.NotFound]
    }).annotateMerge(OpenApi.annotations({ summary: "Edit a contact" })),
    HttpApiEndpoint.delete("delete", "/contacts/:msisdn", {
      params: msisdnPath,
      success: Deleted,
      error: [...commonErrors, ErrorBody.NotFound]
    }).annotateMerge(OpenApi.annotations({ summary: "Delete a contact" }))
  )
  .middleware(Authorization)
{}

export class SystemGroup extends HttpApiGroup.make("system", { topLevel: true })
  .add(
    HttpApiEndpoint.get("health", "/health", {
      success: Health,
      error: commonErrors
    }).annotateMerge(OpenApi.annotations({ summary: "Ready once the store answers (no key needed)" }))
  )
{}

/** An OpenAPI response as a `HEAD` answers it: its description and headers, no content. */
const withoutContent = (response: unknown): unknown =>
  Predicate.isObject(response) ? Object.fromEntries(Object.entries(response).filter(([field]) => field !== "content")) : response

/**
 * The document with a `HEAD` operation beside each `GET`: the router answers HEAD by the GET route (RFC 9110 §9.3.2:
 * GET's status and headers, no content), so the document describes those answers too, under their own operation ids.
 */
const describeHead = (spec: Record<string, unknown>): Record<string, unknown> => {
  const paths = spec["paths"]
  if (!Predicate.isObject(paths)) return spec
  const described = Object.entries(paths).map(([path, item]): readonly [string, unknown] => {
    const get = Predicate.isObject(item) ? item["get"] : undefined
    if (!Predicate.isObject(item) || !Predicate.isObject(get)) return [path, item]
    const head = Object.fromEntries(Object.entries(get).map(([field, value]) =>
      field === "operationId" ? [field, `${String(value)}.head`] :
      field === "responses" && Predicate.isObject(value) ?
      [field, Object.fromEntries(Object.entries(value).map(([status, response]) => [status, withoutContent(response)]))] :
      [field, value]
    ))
    return [path, { ...item, head }]
  })
  return { ...spec, paths: Object.fromEntries(described) }
}

export class Api extends HttpApi.make("smsbook")
  .add(MessagesGroup)
  .add(ContactsGroup)
  .add(SystemGroup)
  .annotateMerge(OpenApi.annotations({
    title: "smsbook",
    version: "0.1.0",
    description: "SMS messages and a contact book. Errors answer `{ \"error\": { code, number, status, message, details } }`.",
    transform: describeHead
  }))
{}
