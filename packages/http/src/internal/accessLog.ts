/**
 * The server's outermost middleware: a body declared over 1 MiB and an HTTP/1.1 request without `Host` are refused
 * before any route runs, every failure that escaped the API (an unknown route, a defect, a store failure during
 * authentication) becomes an error body, then one JSON access-log line is written (no phone number in it), for a
 * request cut off too; a 401 gets its `WWW-Authenticate` header, a 415 its `Accept-Encoding`.
 */
import { Errors, type SmsbookError } from "@smsbook/core"
import { Cause, Effect, Exit, Option, Predicate } from "effect"
import { HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiError } from "effect/http-api"
import * as ErrorBody from "../ErrorBody.ts"
import * as ClientErrors from "./clientErrors.ts"
import * as JsonBody from "./jsonBody.ts"

const isSmsbookError = (value: unknown): value is SmsbookError =>
  Predicate.isObject(value) && "_tag" in value && typeof value._tag === "string" && Object.hasOwn(Errors.catalog, value._tag) &&
  value instanceof Error

/** The error body answering a cause nothing else answered. */
export const bodyOf = (cause: Cause.Cause<unknown>): ErrorBody.BodyOf<ErrorBody.Status> => {
  const failure = Option.getOrUndefined(Cause.findErrorOption(cause))
  const defect = Cause.findDefect(cause)
  const error = failure ?? (defect._tag === "Success" ? defect.success : undefined)
  if (ErrorBody.isBody(error)) return error
  if (isSmsbookError(error)) return ErrorBody.fromError(error)
  if (HttpServerError.isHttpServerError(error) && error.reason._tag === "RouteNotFound") {
    return ErrorBody.http("RouteNotFound", "no such endpoint: see /openapi.json")
  }
  if (HttpApiError.HttpApiSchemaError.is(error) && error.kind !== "Body" && error.kind !== "ResponseHeaders") {
    return ErrorBody.http("MalformedJson", `the request's ${error.kind.toLowerCase()} could not be read`)
  }
  return ErrorBody.http("InternalError", "the server failed to answer; the failure is in its log")
}

const respond = (body: ErrorBody.BodyOf<ErrorBody.Status>) =>
  HttpServerResponse.jsonUnsafe(body, {
    status: body.error.status,
    // A body refused part-way is not read to its end: the connection cannot be reused.
    ...(body.error.status === 413 ? { headers: { connection: "close" } } : {})
  })

/** The answer to a request the server's stop cut off after the drain: nothing of it was kept, so a retry is safe. */
const stopping = ErrorBody.http("Stopping", "the server stopped before this request finished; nothing of it was kept: retry")

/** Whether an interruption is the client's: it closed the connection before the answer (effect/http's annotation). */
const clientClosed = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.some((reason) => reason._tag === "Interrupt" && reason.annotations.has(HttpServerError.ClientAbort.key))

/**
 * The request with a `/contacts/:msisdn` number that is not valid percent-encoding (`%FF`, `%ZZ`) escaped, so that
 * the router, which cannot decode it and matched no route, reaches the endpoint: its key check answers first (401
 * without a live key, as every endpoint), then the endpoint refuses the number as sent (`INVALID_MSISDN`).
 */
const routable = (request: HttpServerRequest.HttpServerRequest): HttpServerRequest.HttpServerRequest => {
  const path = pathOf(request.url)
  // Only an escape can fail to decode.
  if (!path.includes("%")) return request
  const segment = /^\/contacts\/([^/]+)$/.exec(path)?.[1]
  if (segment === undefined) return request
  try {
    decodeURIComponent(segment)
    return request
  } catch {
    return request.modify({ url: `/contacts/${encodeURIComponent(segment)}${request.url.slice(path.length)}` })
  }
}

/**
 * `effect` seeing the request as {@link routable} makes it, provided only when that differs: providing a service
 * changes the fiber's context twice (in, then out), which every request would pay for what one in many thousands needs.
 */
const routedAs = <A, E, R>(effect: Effect.Effect<A, E, R>, request: HttpServerRequest.HttpServerRequest): Effect.Effect<A, E, R> => {
  const routed = routable(request)
  return routed === request ? effect : Effect.provideService(effect, HttpServerRequest.HttpServerRequest, routed)
}

/**
 * A run of six digits or more, separators or escapes between them included. It never starts inside an escape: from
 * the decimal hex digits of each `%20`, the run of escapes after it was scanned again (a 16 kB path of them held the
 * event loop for ~90 ms).
 */
const number = /(?<!%[0-9A-Fa-f]?)(?:%2B|\+)?\d(?:(?:[\s().-]|%[0-9A-Fa-f]{2})*\d){5,}/g

/**
 * The path a log line shows: a contact's number is the route's pattern (`/contacts/:msisdn`), and elsewhere (a path
 * that is no endpoint: `/Contacts/+44-7400-123-456`) a {@link number} is `:number`. The log keeps no phone numbers, as
 * it keeps no query strings; the route, the status and the time are what an operator reads it for.
 */
export const loggedPath = (url: string): string => {
  const path = pathOf(url)
  return /^\/contacts\/[^/]+$/.test(path) ? "/contacts/:msisdn" : path.replace(number, ":number")
}

/** The path of a request URL, without its query string. */
const pathOf = (url: string): string => {
  const query = url.indexOf("?")
  return query < 0 ? url : url.slice(0, query)
}

/**
 * The wall clock as ISO 8601 text, made once per millisecond: a server under load answers several requests in one,
 * and `toISOString` costs more than the line's `JSON.stringify` (0.48 against 0.31 µs in a loop).
 */
const isoClock = (): (() => string) => {
  let millis = Number.NaN
  let text = ""
  return () => {
    const now = Date.now()
    if (now !== millis) {
      millis = now
      text = new Date(now).toISOString()
    }
    return text
  }
}

/**
 * The middleware as a global layer; `write` receives each access-log line (a JSON object). Times are
 * read from the wall clock and `performance.now()` directly, not `Clock`: two BigInt nanosecond reads
 * through the fiber's services cost more than the rest of the line, and the log is about real time.
 */
export const layer = (write: (line: string) => void) => {
  const now = isoClock()
  return HttpRouter.middleware((httpEffect) =>
    Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
      const started = performance.now()
      // Read now: a connection cut off before the answer no longer knows its peer.
      const remote = Option.getOrUndefined(request.remoteAddress)
      // The cause of a 5xx that escaped the API; one answered as a declared error body noted its own (`noteFailure`).
      let failure: string | undefined
      const refused = JsonBody.declaredTooLarge(request) ?? ClientErrors.hostMissing(request)
      const answered = refused !== undefined
        ? Effect.succeed(respond(refused))
        : routedAs(httpEffect, request)
      const log = (status: number, interrupted: boolean) => {
        const ended = performance.now()
        const cause = failure ?? ErrorBody.notedFailure(request)
        write(JSON.stringify({
          time: now(),
          method: request.method,
          path: loggedPath(request.url),
          status,
          ms: Math.round((ended - started) * 1000) / 1000,
          remote,
          ...(interrupted ? { interrupted: true } : {}),
          ...(cause === undefined ? {} : { failure: cause })
        }))
      }
      return Effect.map(
        Effect.catchCause(answered, (cause) => {
          if (Cause.hasInterruptsOnly(cause)) {
            if (clientClosed(cause)) return Effect.failCause(cause)
            // Cut off by the stop after the drain: Effect's server answers the response a defect of the cause carries
            // (else an empty 503), so the client gets the JSON body /openapi.json declares for 503.
            log(503, true)
            return Effect.failCause(Cause.combine(cause, Cause.die(respond(stopping))))
          }
          const body = bodyOf(cause)
          if (body.error.status >= 500) failure = Cause.pretty(cause)
          return Effect.succeed(respond(body))
        }),
        (response) => {
          log(response.status, false)
          // RFC 9110: a 401 names the scheme the server takes, a 415 the content codings it reads (§12.5.3).
          if (response.status === 401) return HttpServerResponse.setHeader(response, "www-authenticate", "Bearer")
          return response.status === 415 ? HttpServerResponse.setHeader(response, "accept-encoding", JsonBody.codings) : response
        }
      ).pipe(
        // A request its client cut off is logged too, with the status effect/http gives it: 499 (one the stop cut is
        // logged above, answered 503); any other interruption as 503.
        Effect.onExit((exit) =>
          Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause)
            ? Effect.sync(() => log(clientClosed(exit.cause) ? 499 : 503, true))
            : Effect.void
        )
      )
    }), { global: true })
}
