/**
 * Requests Node cuts off for slowness (`headersTimeout`, `requestTimeout`): Node writes its answer on the socket
 * itself, outside the app. Answered here as every refusal is (a JSON body, `REQUEST_TIMEOUT` 408), and the socket
 * remembered, so the app's reading of the body it will never get ends as that 408 too, and its access-log line says
 * what the client was told.
 */
import type { Duplex } from "node:stream"
import * as ErrorBody from "../ErrorBody.ts"

/** Sockets whose request Node timed out. */
const timedOut = new WeakSet<object>()

/** Whether Node cut off the request on `socket` for slowness. */
export const isTimedOut = (socket: object | null | undefined): boolean => socket != null && timedOut.has(socket)

/** The refusal of a request that did not arrive in time. */
export const refusal = ErrorBody.http("RequestTimeout", "the request did not arrive in time: the connection is closed")

const raw = (status: string, headers: string, body: string): string =>
  `HTTP/1.1 ${status}\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`

const timeoutAnswer = raw("408 Request Timeout", "Content-Type: application/json\r\n", JSON.stringify(refusal))

/** Whether the response of the request now on `socket` has not started: Node's own test (`_httpMessage`). */
const unanswered = (socket: Duplex): boolean => {
  const response: unknown = Reflect.get(socket, "_httpMessage")
  return typeof response !== "object" || response === null || Reflect.get(response, "headersSent") !== true
}

/**
 * The server's `clientError` listener, doing what Node does without one (an answer where the current request's
 * response has not started, keep-alive connections included, then the socket destroyed), but for a timeout's
 * answer: ours, in JSON.
 */
export const onClientError = (error: Error & { readonly code?: string }, socket: Duplex): void => {
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") timedOut.add(socket)
  if (socket.writable && unanswered(socket)) {
    const answer = error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? timeoutAnswer
      : error.code === "HPE_HEADER_OVERFLOW"
      ? raw("431 Request Header Fields Too Large", "", "")
      : error.code === "HPE_CHUNK_EXTENSIONS_OVERFLOW"
      ? raw("413 Payload Too Large", "", "")
      : raw("400 Bad Request", "", "")
    socket.write(answer)
  }
  socket.destroy(error)
}
