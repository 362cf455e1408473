/**
 * Requests Node refuses itself, outside the app: too slow (`headersTimeout`, `requestTimeout`), headers too large,
 * not HTTP at all, `CONNECT`. Node writes an empty answer on the socket; these are answered as every refusal is (a JSON body,
 * `Connection: close`), with an access-log line where the app never saw the request. A timed-out socket is remembered, so the app's reading of the
 * body it will never get ends as that 408 too, and its own access-log line says what the client was told. A request
 * without `Host`, which Node refused with an empty answer too, is refused by the app instead ({@link hostMissing}).
 */
import type { IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"
import { NodeHttpServerRequest } from "@effect/platform-node"
import type { HttpServerRequest } from "effect/http"
import * as ErrorBody from "../ErrorBody.ts"

/** Sockets whose request Node timed out. */
const timedOut = new WeakSet<object>()

/** Whether Node cut off the request on `socket` for slowness. */
export const isTimedOut = (socket: object | null | undefined): boolean => socket != null && timedOut.has(socket)

/** The refusal of a request that did not arrive in time. */
export const refusal = ErrorBody.http("RequestTimeout", "the request did not arrive in time: the connection is closed")

/** The refusal of each error Node's parser reports (`clientError`), by its code; anything else is malformed HTTP. */
const refusalOf = (code: string | undefined): ErrorBody.Body => {
  switch (code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return refusal
    case "HPE_HEADER_OVERFLOW":
      return ErrorBody.http("HeadersTooLarge", "the request's headers are larger than the server reads (16 KiB)")
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return ErrorBody.http("PayloadTooLarge", "the request's chunk extensions are larger than the server reads")
    default:
      return ErrorBody.http("MalformedRequest", "the request is not HTTP/1.1 the server can read")
  }
}

const reasons: Readonly<Record<number, string>> = { 400: "Bad Request", 404: "Not Found", 408: "Request Timeout", 413: "Payload Too Large", 431: "Request Header Fields Too Large" }

const raw = (body: ErrorBody.Body): string => {
  const text = JSON.stringify(body)
  const status = body.error.status
  return `HTTP/1.1 ${status} ${reasons[status] ?? "Bad Request"}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`
}

/** Whether the response of the request now on `socket` has not started: Node's own test (`_httpMessage`). */
const unanswered = (socket: Duplex): boolean => {
  const response: unknown = Reflect.get(socket, "_httpMessage")
  return typeof response !== "object" || response === null || Reflect.get(response, "headersSent") !== true
}

/**
 * The server's `clientError` listener, doing what Node does without one (an answer where the current request's
 * response has not started, keep-alive connections included, then the socket destroyed), but with smsbook's answer,
 * and its access-log line to `log` (the method and path are not known: Node read no whole request).
 */
export const onClientError = (log: (line: string) => void) => (error: Error & { readonly code?: string }, socket: Duplex): void => {
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") timedOut.add(socket)
  if (socket.writable && unanswered(socket)) {
    const body = refusalOf(error.code)
    socket.write(raw(body))
    // A request the app holds (its body cut off) is ended and logged by the app, with its path: one line a request.
    if (Reflect.get(socket, "_httpMessage") == null) {
      const remote: unknown = Reflect.get(socket, "remoteAddress")
      log(JSON.stringify({ time: new Date().toISOString(), status: body.error.status, remote, refused: error.code ?? error.message }))
    }
  }
  socket.destroy(error)
}

/**
 * The server's `connect` listener: no endpoint takes `CONNECT` (a proxy's method), and without a listener Node closed
 * the connection without a word. It is answered as every method no endpoint takes, 404 `ROUTE_NOT_FOUND`, then the
 * connection closes (Node reads nothing more on it), with its access-log line (no path: its target is a host and port).
 */
export const onConnect = (log: (line: string) => void) => (_request: IncomingMessage, socket: Duplex): void => {
  const body = ErrorBody.http("RouteNotFound", "no such endpoint: see /openapi.json")
  if (socket.writable) socket.end(raw(body), () => socket.destroy())
  else socket.destroy()
  const remote: unknown = Reflect.get(socket, "remoteAddress")
  log(JSON.stringify({ time: new Date().toISOString(), method: "CONNECT", status: body.error.status, remote, refused: "CONNECT" }))
}

const noHost = ErrorBody.http("MalformedRequest", "an HTTP/1.1 request must name its Host (RFC 9112 §3.2)")

/**
 * The refusal of an HTTP/1.1 request without `Host`: Node's own check (`requireHostHeader`, turned off where the server
 * is created), made by the app so that the answer is the JSON body, where Node's had none.
 */
export const hostMissing = (request: HttpServerRequest.HttpServerRequest): ErrorBody.BodyOf<400> | undefined => {
  const incoming = NodeHttpServerRequest.toIncomingMessage(request)
  return incoming.httpVersion === "1.1" && incoming.headers.host === undefined ? noHost : undefined
}
