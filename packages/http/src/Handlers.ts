/**
 * The endpoints of `Api` implemented by core's use cases (`ContactBook`, `Messaging`). Bodies and
 * query strings are handed to the use cases as sent, so they are read as leniently as everywhere
 * else in smsbook (`misdn`, numeric ids, names in any case); answers are core's wire shapes (the two
 * hot ones, a contact read and an individual send, written as JSON without a second Schema pass).
 */
import { ContactBook, ContactStore, Messaging, type Query } from "@smsbook/core"
import { Effect, Layer } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "./Api.ts"
import * as ErrorBody from "./ErrorBody.ts"
import * as JsonBody from "./internal/jsonBody.ts"
import * as QueryParams from "./internal/queryParams.ts"
import * as WireResponse from "./internal/wireResponse.ts"

const query = (endpoint: Query.Endpoint) => (request: HttpServerRequest.HttpServerRequest) =>
  Effect.fromResult(QueryParams.fromUrl(request.url, endpoint))

export const messages = HttpApiBuilder.group(Api, "messages", (handlers) =>
  handlers
    .handle("list", ({ request }) =>
      Effect.flatMap(query("messages")(request), Messaging.listMessages).pipe(ErrorBody.mapTo([400])))
    .handleRaw("sendToContact", ({ request }) =>
      Effect.flatMap(JsonBody.read(request), (body) =>
        Messaging.sendToContact(body).pipe(
          Effect.map((message) => WireResponse.message(message, 201)),
          ErrorBody.mapTo([400, 403, 409])
        )))
    .handleRaw("send", ({ request }) =>
      Effect.flatMap(JsonBody.read(request), (body) =>
        Messaging.sendToGroups(body).pipe(
          Effect.map((accepted) => accepted.response),
          ErrorBody.mapTo([400, 409])
        ))))

export const contacts = HttpApiBuilder.group(Api, "contacts", (handlers) =>
  handlers
    .handle("list", ({ request }) => Effect.flatMap(query("contacts")(request), ContactBook.listContacts).pipe(ErrorBody.mapTo([400])))
    .handle("get", ({ params }) =>
      ContactBook.getContact(params.msisdn).pipe(Effect.map((contact) => WireResponse.contact(contact)), ErrorBody.mapTo([400, 404])))
    .handleRaw("create", ({ params, request }) =>
      Effect.flatMap(JsonBody.read(request), (body) => ContactBook.createContact(params.msisdn, body).pipe(ErrorBody.mapTo([400, 409]))))
    .handleRaw("edit", ({ params, request }) =>
      Effect.flatMap(JsonBody.read(request), (body) => ContactBook.editContact(params.msisdn, body).pipe(ErrorBody.mapTo([400, 404]))))
    .handle("delete", ({ params }) => ContactBook.deleteContact(params.msisdn).pipe(ErrorBody.mapTo([400, 404]))))

/**
 * `GET /health`: ready once the store answers a read; 503 `NOT_READY` otherwise, naming the problem's kind only: the
 * endpoint needs no key, and the driver's text (a server's address) goes to the request's log line.
 */
export const system = (storeKind: string) =>
  HttpApiBuilder.group(Api, "system", (handlers) =>
    handlers.handle("health", () =>
      Effect.flatMap(Effect.service(ContactStore.ContactStore), (store) => store.count).pipe(
        Effect.as({ status: "ready" as const, store: storeKind }),
        Effect.catch((failure) => {
          const problem = failure.problem === undefined ? "" : ` (${failure.problem})`
          return Effect.andThen(
            ErrorBody.noteFailure(failure),
            Effect.fail(ErrorBody.http("NotReady", `the store does not answer${problem}; the cause is in the server's log`))
          )
        })
      )))

/** Every group of `Api`, over the store's ports, the account and the `Authorization` implementation. */
export const layer = (storeKind: string) => Layer.mergeAll(messages, contacts, system(storeKind))
