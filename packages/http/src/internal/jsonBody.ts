/**
 * Reading a request body as JSON, bounded: over the limit is 413 (by `Content-Length` before
 * reading, or while streaming a chunked body), bytes that are not UTF-8 JSON are 400 `MALFORMED_JSON`.
 */
import { Effect, Stream } from "effect"
import type { HttpServerRequest } from "effect/http"
import * as ErrorBody from "../ErrorBody.ts"

/** The largest body accepted: 1 MiB. */
export const maxBytes = 1024 * 1024

const tooLarge = ErrorBody.http("PayloadTooLarge", `the request body is larger than ${maxBytes} bytes (1 MiB)`)

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
 * The body of `request` parsed as JSON; an empty body is `undefined` (the use case then names the
 * missing fields). Never more than `limit` bytes are held.
 */
export const read = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number = maxBytes
): Effect.Effect<unknown, ErrorBody.Body<400 | 413>> =>
  Effect.gen(function*() {
    const declared = Number(request.headers["content-length"] ?? "0")
    if (declared > limit) return yield* Effect.fail(tooLarge)
    const chunks: Array<Uint8Array> = []
    let size = 0
    yield* request.stream.pipe(
      Stream.mapError(() => ErrorBody.http("MalformedJson", "the request body could not be read")),
      Stream.runForEach((chunk) => {
        size += chunk.length
        if (size > limit) return Effect.fail(tooLarge)
        chunks.push(chunk)
        return Effect.void
      })
    )
    if (size === 0) return undefined
    const text = yield* Effect.try({
      try: () => utf8.decode(concat(chunks, size)),
      catch: () => ErrorBody.http("MalformedJson", "the request body is not UTF-8 text")
    })
    if (text.trim() === "") return undefined
    return yield* Effect.try({
      try: (): unknown => JSON.parse(text),
      catch: (error) =>
        ErrorBody.http("MalformedJson", `the request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
    })
  })
