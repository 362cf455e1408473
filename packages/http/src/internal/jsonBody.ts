/**
 * Reading a request body as JSON, bounded: over the limit is 413 (by `Content-Length` before
 * reading, while a chunked body arrives, or once decoded from its content coding), bytes that are not UTF-8 JSON are
 * 400 `MALFORMED_JSON`, a content coding the server does not read is 415, a body that does not arrive in time is 408.
 */
import type { IncomingMessage } from "node:http"
import type { Http2ServerRequest } from "node:http2"
import * as Zlib from "node:zlib"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import * as ErrorBody from "../ErrorBody.ts"
import * as ClientErrors from "./clientErrors.ts"

/** The largest body accepted: 1 MiB. */
export const maxBytes = 1024 * 1024

const tooLarge = ErrorBody.http("PayloadTooLarge", `the request body is larger than ${maxBytes} bytes (1 MiB)`)

/**
 * The refusal of a request whose `Content-Length` is over {@link maxBytes}, whatever its method: a `GET` or `DELETE`
 * body is never read, but one declared too large is still refused rather than drained by Node after the answer.
 */
export const declaredTooLarge = (request: HttpServerRequest.HttpServerRequest): ErrorBody.BodyOf<413> | undefined =>
  Number(request.headers["content-length"] ?? "0") > maxBytes ? tooLarge : undefined

const unreadable = ErrorBody.http("MalformedJson", "the request body could not be read")

/** What an empty body reads as: a new object each time, as `JSON.parse("{}")` would give. */
const noFields = (): unknown => ({})

const utf8 = new TextDecoder("utf-8", { fatal: true })

const concat = (chunks: ReadonlyArray<Uint8Array>, size: number): Uint8Array => {
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.length
  }
  return bytes
}

/**
 * Tells a client that waits for `100 Continue` (RFC 9110 §10.1.1) to send its body, now that the body is going to be
 * read. effect/http takes Node's `checkContinue` event, which turns Node's own `100` off, and writes it only from its
 * own body readers, which {@link bytes} does not use; a body refused unread (too large, no key) gets no `100`.
 */
const acceptBody = (request: HttpServerRequest.HttpServerRequest, incoming: IncomingMessage | Http2ServerRequest): void => {
  // Node's test: an HTTP/1.1 request whose Expect names 100-continue (HTTP/1.0 ignores it).
  if (incoming.httpVersion !== "1.1" || !/(?:^|\W)100-continue(?:$|\W)/i.test(incoming.headers.expect ?? "")) return
  const response = NodeHttpServerRequest.toServerResponse(request)
  if (!response.headersSent) response.writeContinue()
}

/**
 * The raw bytes of `request`, at most {@link maxBytes} of them, read from Node's request in one callback
 * (a Stream of chunks costs a fiber step per chunk). Past the limit, reading stops and the
 * connection is not reused (413 answers `connection: close`).
 */
const bytes = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<Uint8Array, ErrorBody.Body<400 | 408 | 413>> =>
  Effect.callback((resume) => {
    const incoming = NodeHttpServerRequest.toIncomingMessage(request)
    const chunks: Array<Uint8Array> = []
    let size = 0
    const detach = () => {
      incoming.off("data", onData)
      incoming.off("end", onEnd)
      incoming.off("error", onError)
      incoming.off("aborted", onAborted)
    }
    const fail = (error: ErrorBody.Body<400 | 408 | 413>) => {
      detach()
      resume(Effect.fail(error))
    }
    function onData(chunk: Uint8Array) {
      size += chunk.length
      if (size > maxBytes) return fail(tooLarge)
      chunks.push(chunk)
    }
    function onEnd() {
      detach()
      resume(Effect.succeed(chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : concat(chunks, size)))
    }
    // Cut off by Node for slowness, the client was answered 408 (`clientErrors.ts`): so is this request.
    const cutOff = () => fail(ClientErrors.isTimedOut(incoming.socket) ? ClientErrors.refusal : unreadable)
    function onError() {
      cutOff()
    }
    function onAborted() {
      cutOff()
    }
    if (incoming.readableEnded) return void resume(Effect.succeed(new Uint8Array(0)))
    acceptBody(request, incoming)
    incoming.on("data", onData)
    incoming.on("end", onEnd)
    incoming.on("error", onError)
    incoming.on("aborted", onAborted)
    return Effect.sync(detach)
  })

/** The content codings (RFC 9110 §8.4.1) a body is read in, as a 415 answer's `Accept-Encoding` names them. */
export const codings = "gzip, deflate, br"

type Decode = (bytes: Uint8Array, options: { readonly maxOutputLength: number }) => Uint8Array

/** `deflate` is the zlib format (RFC 9110 §8.4.1.2); some clients send the raw deflate stream, read too. */
const inflate: Decode = (bytes, options) => {
  try {
    return Zlib.inflateSync(bytes, options)
  } catch (error) {
    if (error instanceof RangeError) throw error
    return Zlib.inflateRawSync(bytes, options)
  }
}

const decoders: { readonly [coding: string]: Decode } = {
  gzip: Zlib.gunzipSync,
  "x-gzip": Zlib.gunzipSync,
  deflate: inflate,
  br: Zlib.brotliDecompressSync
}

/**
 * The most codings a body may come in. Each is decoded synchronously, up to 1 MiB: a header listing thousands (a
 * 1 MiB body of stored layers) held the event loop for seconds. A client applies one, a proxy perhaps another.
 */
const maxCodings = 3

/**
 * The body as sent before its content codings, decoded last to first (`Content-Encoding: gzip` or a list), never more
 * than {@link maxBytes} of it: a small compressed body can decode to gigabytes. `identity` is no coding. The list is
 * checked whole before any coding is decoded.
 */
const decoded = (
  request: HttpServerRequest.HttpServerRequest,
  body: Uint8Array
): Effect.Effect<Uint8Array, ErrorBody.Body<400 | 413 | 415>> => {
  const header = request.headers["content-encoding"]
  // The common case, no coding, costs a send nothing more.
  if (header === undefined) return Effect.succeed(body)
  const applied = header.split(",").map((coding) => coding.trim().toLowerCase()).filter((coding) => coding !== "" && coding !== "identity")
  const steps: Array<readonly [string, Decode]> = []
  for (const coding of applied) {
    const decode = decoders[coding]
    if (decode === undefined) {
      return Effect.fail(ErrorBody.http("UnsupportedContentEncoding", `the request body's content coding ${JSON.stringify(coding).slice(0, 60)} is not one the server reads: send it as is, or in ${codings}`))
    }
    steps.push([coding, decode])
  }
  if (steps.length > maxCodings) {
    return Effect.fail(ErrorBody.http("UnsupportedContentEncoding", `the request body comes in ${steps.length} content codings; the server reads at most ${maxCodings}`))
  }
  // No bytes are no body in any coding (a client that labels an empty body), read as no fields as without one.
  let bytes = body
  for (const [coding, decode] of body.length === 0 ? [] : steps.reverse()) {
    try {
      bytes = decode(bytes, { maxOutputLength: maxBytes })
    } catch (error) {
      return Effect.fail(error instanceof RangeError
        ? ErrorBody.http("PayloadTooLarge", `the request body is larger than ${maxBytes} bytes once decoded from ${coding}`)
        : ErrorBody.http("MalformedJson", `the request body is not valid ${coding}`))
    }
  }
  return Effect.succeed(bytes)
}

/**
 * The body of `request` parsed as JSON; an empty (or blank) body is an object without fields, so the use case names
 * the field that is missing, and one whose fields are all optional (a contact's creation) goes ahead. Never more than
 * {@link maxBytes} are held.
 */
export const read = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<unknown, ErrorBody.Body<400 | 408 | 413 | 415>> => {
  const refused = declaredTooLarge(request)
  if (refused !== undefined) return Effect.fail(refused)
  return Effect.flatMap(Effect.flatMap(bytes(request), (body) => decoded(request, body)), (body) => {
    if (body.length === 0) return Effect.succeed(noFields())
    let text: string
    try {
      text = utf8.decode(body)
    } catch {
      return Effect.fail(ErrorBody.http("MalformedJson", "the request body is not UTF-8 text"))
    }
    if (text.trim() === "") return Effect.succeed(noFields())
    try {
      return Effect.succeed<unknown>(JSON.parse(text))
    } catch (error) {
      return Effect.fail(
        ErrorBody.http("MalformedJson", `the request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
      )
    }
  })
}
