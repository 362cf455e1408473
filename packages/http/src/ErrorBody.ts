/**
 * The JSON body of every failed HTTP response: `{ "error": { code, number, status, message, details } }`,
 * one schema per HTTP status an endpoint declares, built from core's error catalog or from the HTTP layer's own errors.
 */
import { Errors, type SmsbookError, type StoreFailure } from "@smsbook/core"
import { Effect, Option, Predicate, Schema } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiSchema } from "effect/http-api"

/** Every status an smsbook server answers a failure with. */
export const statuses = [400, 401, 403, 404, 408, 409, 413, 415, 422, 431, 500, 502, 503] as const
export type Status = typeof statuses[number]

/** A value of an error's own fields, as `details` carries it. */
const Detail = Schema.Union([Schema.String, Schema.Finite, Schema.Boolean, Schema.Array(Schema.String)])
type Detail = typeof Detail.Type

const Details = Schema.Record(Schema.String, Detail)

/** The error body of one status; the status literal keeps the bodies of different statuses apart. */
const make = <S extends Status>(status: S) =>
  Schema.Struct({
    error: Schema.Struct({
      code: Schema.String.annotate({ description: "Stable text code (CONTACT_NOT_FOUND…); never renamed." }),
      number: Schema.Int.annotate({ description: "Stable number of the code; never renumbered." }),
      status: Schema.Literal(status).annotate({ description: "The HTTP status of the response." }),
      message: Schema.String.annotate({ description: "What went wrong, for people." }),
      // Always written; optional when read, so a client also reads a server that left it out (read leniently).
      details: Schema.optionalKey(Details.annotate({ description: "The error's own fields (field, value, reason, msisdn…); empty where it has none." }))
    })
  }).pipe(HttpApiSchema.status(status)).annotate({ identifier: `Error${status}` })

export const BadRequest = make(400)
export const Unauthorized = make(401)
export const Forbidden = make(403)
export const NotFound = make(404)
export const RequestTimeout = make(408)
export const Conflict = make(409)
export const PayloadTooLarge = make(413)
export const UnsupportedMediaType = make(415)
export const HeadersTooLarge = make(431)
export const Internal = make(500)
export const Unavailable = make(503)

/** The body of one status; `Body` of a union of statuses is the union of their bodies. */
export interface BodyOf<S extends Status> {
  readonly error: {
    readonly code: string
    readonly number: number
    readonly status: S
    readonly message: string
    readonly details?: { readonly [field: string]: Detail }
  }
}

export type Body<S extends Status = Status> = S extends Status ? BodyOf<S> : never

/**
 * Failures of the HTTP layer itself, beside core's catalog (1xxx input, 2xxx infrastructure):
 * numbered 3xxx, never renumbered.
 */
export const httpCatalog = {
  Unauthorized: { code: "UNAUTHORIZED", number: 3001, status: 401 },
  PayloadTooLarge: { code: "PAYLOAD_TOO_LARGE", number: 3002, status: 413 },
  MalformedJson: { code: "MALFORMED_JSON", number: 3003, status: 400 },
  RouteNotFound: { code: "ROUTE_NOT_FOUND", number: 3004, status: 404 },
  RequestTimeout: { code: "REQUEST_TIMEOUT", number: 3005, status: 408 },
  InternalError: { code: "INTERNAL_ERROR", number: 3006, status: 500 },
  NotReady: { code: "NOT_READY", number: 3007, status: 503 },
  HeadersTooLarge: { code: "HEADERS_TOO_LARGE", number: 3008, status: 431 },
  MalformedRequest: { code: "MALFORMED_REQUEST", number: 3009, status: 400 },
  Stopping: { code: "SERVER_STOPPING", number: 3010, status: 503 },
  UnsupportedContentEncoding: { code: "UNSUPPORTED_CONTENT_ENCODING", number: 3011, status: 415 }
} as const satisfies { readonly [name: string]: { readonly code: string; readonly number: number; readonly status: Status } }

export type HttpFailure = keyof typeof httpCatalog

const isStatus = (status: number): status is Status => statuses.some((known) => known === status)

/** Whether `value` is an error body of a status smsbook answers: a server's answer, or what a handler failed with. */
export const isBody = (value: unknown): value is BodyOf<Status> =>
  Predicate.isObject(value) && "error" in value && Predicate.isObject(value.error) && "status" in value.error &&
  typeof value.error.status === "number" && isStatus(value.error.status)

const isDetail = (value: unknown): value is Detail =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean" ||
  (Array.isArray(value) && value.every(Predicate.isString))

/** The error's own schema fields (not `_tag`, not the derived message). */
const detailsOf = (error: SmsbookError): { readonly [field: string]: Detail } => {
  const details: Record<string, Detail> = {}
  for (const [field, value] of Object.entries(error)) {
    if (field !== "_tag" && isDetail(value)) details[field] = value
  }
  return details
}

/** The body of an HTTP-layer failure: no fields of its own, so `details` is empty (but there, as in every body). */
export const http = <F extends HttpFailure>(failure: F, message: string): BodyOf<typeof httpCatalog[F]["status"]> => {
  const entry: typeof httpCatalog[F] = httpCatalog[failure]
  return { error: { code: entry.code, number: entry.number, status: entry.status, message, details: {} } }
}

/**
 * The most characters of a value an error body echoes back: enough to recognise it, not a copy of a megabyte sent
 * (a 1 MB tag was answered with 2 MB, in the message and in `details.value`).
 */
const echoLimit = 200

/** `text` cut to {@link echoLimit} characters (code points: no pair split), saying how long it was. */
const cut = (text: string): string => {
  const characters = [...text]
  return characters.length <= echoLimit ? text : `${characters.slice(0, echoLimit).join("")}… (${characters.length} characters)`
}

/** A message and its details with every long text value cut, in `details` and where the message quotes it. */
const echoed = (message: string, details: { readonly [field: string]: Detail }) => {
  let shown = message
  const kept: Record<string, Detail> = {}
  for (const [field, value] of Object.entries(details)) {
    if (typeof value !== "string" || value.length <= echoLimit) {
      kept[field] = value
      continue
    }
    kept[field] = cut(value)
    // Messages quote values as JSON text (`got "…"`).
    shown = shown.split(JSON.stringify(value)).join(JSON.stringify(kept[field]))
  }
  return { message: shown.length > 4 * echoLimit ? cut(shown) : shown, details: kept }
}

/**
 * What a store's failure tells a client: what failed and the problem's kind, never the driver's text (a server's
 * address, a path), which the request's log line carries. A lost connection is the catalog's `STORE_UNAVAILABLE` (503):
 * the request may be tried again once the store is back.
 */
const storeFailure = (error: StoreFailure): BodyOf<500 | 503> => {
  const details = { operation: error.operation, ...(error.problem === undefined ? {} : { problem: error.problem }) }
  if (error.problem === "connection") {
    const { code, number } = Errors.catalog.StoreUnavailable
    return { error: { code, number, status: 503, message: `the store cannot be reached (during ${error.operation}): try again shortly`, details } }
  }
  const { code, number } = Errors.catalog.StoreFailure
  return { error: { code, number, status: 500, message: `the store failed during ${error.operation}; the cause is in the server's log`, details } }
}

/** The body of a domain or store error: code, number and status from core's catalog (`Errors.info`). */
export const fromError = (error: SmsbookError): BodyOf<Status> => {
  if (error._tag === "StoreFailure") return storeFailure(error)
  const { code, number, status } = Errors.info(error)
  const { details, message } = echoed(error.message, detailsOf(error))
  return {
    error: isStatus(status)
      ? { code, number, status, message, details }
      : { ...httpCatalog.InternalError, message: `${code}: ${message}`, details: {} }
  }
}

/**
 * The causes of 5xx answers given as declared error bodies (`mapTo`), by request: such an answer is no failure to the
 * access log's middleware, which reads the cause here for the request's log line. Kept by the request's Node object,
 * not provided as a service: providing one copies the fiber's services, on every request, for what few ever note.
 */
const failures = new WeakMap<object, string>()

/** Notes `error` as the cause of the current request's answer (the first note stays); outside a server, nothing. */
export const noteFailure = (error: SmsbookError): Effect.Effect<void> =>
  Effect.map(Effect.serviceOption(HttpServerRequest.HttpServerRequest), (request) => {
    if (Option.isSome(request) && !failures.has(request.value.source)) failures.set(request.value.source, `${error._tag}: ${error.message}`)
  })

/** The cause noted for `request`'s answer, if any. */
export const notedFailure = (request: HttpServerRequest.HttpServerRequest): string | undefined => failures.get(request.source)

/**
 * Maps an effect's domain errors to the bodies of the statuses its endpoint declares, and 500 and 503 (every endpoint
 * declares them: a store failure answers `STORE_FAILURE` 2002, a lost store `STORE_UNAVAILABLE` 2001). A status the
 * endpoint does not declare is a bug in the declaration: answered 500 `INTERNAL_ERROR`, code kept in the message. A
 * 5xx's cause goes to the request's log line ({@link noteFailure}).
 */
export const mapTo = <const S extends ReadonlyArray<Status>>(declared: S) => {
  const accepts = (body: BodyOf<Status>): body is Body<S[number] | 500 | 503> =>
    body.error.status === 500 || body.error.status === 503 || declared.some((status) => status === body.error.status)
  return <A, R>(effect: Effect.Effect<A, SmsbookError, R>): Effect.Effect<A, Body<S[number] | 500 | 503>, R> =>
    Effect.catch(effect, (error) => {
      const found = fromError(error)
      const body: Body<S[number] | 500 | 503> = accepts(found) ? found : http("InternalError", `${found.error.code}: ${found.error.message}`)
      return body.error.status < 500 ? Effect.fail(body) : Effect.andThen(noteFailure(error), Effect.fail(body))
    })
}
