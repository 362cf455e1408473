/**
 * Clients of an smsbook server: the typed `HttpApiClient` of `Api` for Effect services, and a small
 * Promise wrapper for services without Effect. Both send the API key as `Authorization: Bearer …`.
 */
import type { Contact, Message } from "@smsbook/core"
import { Context, Effect, Layer, ManagedRuntime } from "effect"
import { FetchHttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient, HttpApiMiddleware } from "effect/http-api"
import { Api, Authorization, type Deleted } from "./Api.ts"
import * as ErrorBody from "./ErrorBody.ts"

export interface Options {
  /** Where the server answers, e.g. `http://127.0.0.1:8080`. */
  readonly baseUrl: string
  /** An API key from `smsbook keys create`; leave out for a `--no-auth` server. */
  readonly apiKey?: string
}

/** The typed client: `client.contacts.get({ params: { msisdn } })`, `client.messages.sendToContact({ payload })`, `client.health()`. */
export class SmsbookClient extends Context.Service<SmsbookClient, HttpApiClient.ForApi<typeof Api>>()("@smsbook/http/SmsbookClient") {}

/** Adds the key to every request the client makes. */
const bearer = (apiKey: string | undefined) =>
  HttpApiMiddleware.layerClient(
    Authorization,
    ({ next, request }) => next(apiKey === undefined ? request : HttpClientRequest.bearerToken(request, apiKey))
  )

/** The typed client over `fetch`. */
export const layer = (options: Options): Layer.Layer<SmsbookClient> =>
  Layer.effect(SmsbookClient, HttpApiClient.make(Api, { baseUrl: options.baseUrl })).pipe(
    Layer.provide(bearer(options.apiKey)),
    Layer.provide(FetchHttpClient.layer)
  )

/** A failure the server answered: its error body, as an `Error` (`code`, `number`, `status`, `details`). */
export class SmsbookHttpError extends Error {
  readonly code: string
  readonly number: number
  readonly status: number
  readonly details: { readonly [field: string]: unknown }
  constructor(body: ErrorBody.BodyOf<ErrorBody.Status>) {
    super(body.error.message)
    this.name = "SmsbookHttpError"
    this.code = body.error.code
    this.number = body.error.number
    this.status = body.error.status
    this.details = body.error.details ?? {}
  }
}

/** `GET /messages` parameters as the interface names them; every value is text on the wire. */
export type MessagesQuery = Partial<Record<"start_date" | "end_date" | "Limit" | "start" | "misdn" | "group_short_name" | "direction", string>>

/** `GET /contacts` parameters as the interface names them. */
export type ContactsQuery = Partial<Record<"Limit" | "Start" | "Query" | "Status" | "shortResults", string>>

/** The Promise client: one method per endpoint, rejecting with `SmsbookHttpError` when the server refuses. */
export interface PromiseClient {
  readonly listMessages: (query?: MessagesQuery) => Promise<ReadonlyArray<Message.Message>>
  readonly sendToContact: (body: Message.SendToContactBody) => Promise<Message.Message>
  readonly send: (body: Message.SendToGroupsBody) => Promise<Message.Message>
  readonly listContacts: (query?: ContactsQuery) => Promise<ReadonlyArray<Contact.Contact | Contact.ShortContact>>
  readonly getContact: (msisdn: string) => Promise<Contact.Contact>
  readonly createContact: (msisdn: string, body: Contact.CreateBody) => Promise<Contact.Contact>
  readonly editContact: (msisdn: string, body: Contact.EditBody) => Promise<Contact.Contact>
  readonly deleteContact: (msisdn: string) => Promise<typeof Deleted.Type>
  /** Releases the client's resources. */
  readonly close: () => Promise<void>
}

/** A Promise client of the server at `options.baseUrl`, for code that does not use Effect. */
export const promise = (options: Options): PromiseClient => {
  const runtime = ManagedRuntime.make(layer(options))
  const run = <A, E>(call: (client: SmsbookClient["Service"]) => Effect.Effect<A, E>): Promise<A> =>
    runtime.runPromise(
      Effect.flatMap(Effect.service(SmsbookClient), call).pipe(
        Effect.mapError((error) => ErrorBody.isBody(error) ? new SmsbookHttpError(error) : error)
      )
    )
  return {
    listMessages: (query = {}) => run((client) => client.messages.list({ query })),
    sendToContact: (payload) => run((client) => client.messages.sendToContact({ payload })),
    send: (payload) => run((client) => client.messages.send({ payload })),
    listContacts: (query = {}) => run((client) => client.contacts.list({ query })),
    getContact: (msisdn) => run((client) => client.contacts.get({ params: { msisdn } })),
    createContact: (msisdn, payload) => run((client) => client.contacts.create({ params: { msisdn }, payload })),
    editContact: (msisdn, payload) => run((client) => client.contacts.edit({ params: { msisdn }, payload })),
    deleteContact: (msisdn) => run((client) => client.contacts.delete({ params: { msisdn } })),
    close: () => runtime.dispose()
  }
}
