/**
 * Request bodies in a content coding (RFC 9110 §8.4), on a real server (127.0.0.1, a SQLite book, a live key) with
 * `fetch`: gzip, deflate (zlib and raw) and br are read as the body they encode, a chain of them last to first; any
 * other coding is 415 naming the codings read (`Accept-Encoding`); a body that decodes past 1 MiB is 413, one that is
 * not what its coding says is 400.
 */
import * as Zlib from "node:zlib"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as JsonBody from "../src/internal/jsonBody.ts"
import { serving } from "./running.ts"

const encoders = {
  gzip: (bytes: Uint8Array) => Zlib.gzipSync(bytes),
  deflate: (bytes: Uint8Array) => Zlib.deflateSync(bytes),
  br: (bytes: Uint8Array) => Zlib.brotliCompressSync(bytes),
  identity: (bytes: Uint8Array) => bytes
} as const
type Coding = keyof typeof encoders

/** `text` encoded by `codings` in order, as a client applies them (the header lists them in that order). */
const encode = (text: string, codings: ReadonlyArray<Coding>): Uint8Array =>
  codings.reduce<Uint8Array>((bytes, coding) => encoders[coding](bytes), new TextEncoder().encode(text))

describe("request bodies in a content coding", () => {
  const server = serving()

  const call = async (method: string, path: string, body: Uint8Array | string, encoding?: string) => {
    const response = await fetch(server.url + path, {
      method,
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${server.key}`,
        ...(encoding === undefined ? {} : { "content-encoding": encoding })
      },
      body
    })
    return { status: response.status, acceptEncoding: response.headers.get("accept-encoding"), json: await response.json() as unknown }
  }

  it("reads a body in gzip, deflate or br, or a chain of them, as the body it encodes", async () => {
    const edited = "447400123456"
    expect(await call("POST", `/contacts/${edited}`, "{}")).toMatchObject({ status: 201 })
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 40 }),
        fc.array(fc.constantFrom<Coding>("gzip", "deflate", "br", "identity"), { minLength: 1, maxLength: 3 }),
        async (name, codings) => {
          const body = JSON.stringify({ first_name: name })
          const plain = await call("PUT", `/contacts/${edited}`, body)
          const encoded = await call("PUT", `/contacts/${edited}`, encode(body, codings), codings.join(", "))
          expect(encoded).toEqual(plain)
        }
      ),
      { numRuns: 25 }
    )
  })

  it("takes the coding's name in any case, x-gzip for gzip, and the raw deflate stream some clients send", async () => {
    const body = JSON.stringify({ msisdn: "447400123457", message: "coded" })
    const sent = await call("POST", "/messages/send_to_contact", Zlib.gzipSync(body), "X-GZIP")
    expect(sent).toMatchObject({ status: 201, json: { msisdn: "447400123457", message: "coded" } })
    const created = await call("POST", "/contacts/447400123458", Zlib.deflateRawSync(JSON.stringify({ first_name: "Raw" })), "Deflate")
    expect(created).toMatchObject({ status: 201, json: { first_name: "Raw" } })
  })

  it("reads an empty body labelled with a coding as no fields, as an empty body without one", async () => {
    for (const coding of ["gzip", "deflate", "br"]) {
      expect(await call("POST", "/messages/send_to_contact", "", coding)).toEqual(await call("POST", "/messages/send_to_contact", ""))
    }
  })

  it("refuses a coding it does not read with 415, naming those it reads, before anything is done", async () => {
    for (const coding of ["compress", "zstd", "gzip, snappy"]) {
      const answer = await call("POST", "/contacts/447400123459", JSON.stringify({ first_name: "No" }), coding)
      expect(answer).toMatchObject({ status: 415, acceptEncoding: "gzip, deflate, br", json: { error: { code: "UNSUPPORTED_CONTENT_ENCODING", number: 3011, status: 415 } } })
    }
    const missing = await fetch(`${server.url}/contacts/447400123459`, { headers: { authorization: `Bearer ${server.key}` } })
    expect(missing.status).toBe(404)
  })

  it("refuses a chain of more than 3 codings, or one naming a coding it does not read, before decoding any of it", async () => {
    // Each coding is decoded synchronously, up to 1 MiB: a 16 KiB header of `br,br,…` over a 1 MiB body of stored
    // layers held the event loop for seconds. One coding from a client and one from a proxy are what is sent.
    const body = JSON.stringify({ first_name: "Deep" })
    const deep = await call("PUT", "/contacts/447400123456", encode(body, ["gzip", "gzip", "gzip", "gzip"]), "gzip, gzip, gzip, gzip")
    expect(deep).toMatchObject({ status: 415, acceptEncoding: "gzip, deflate, br", json: { error: { code: "UNSUPPORTED_CONTENT_ENCODING" } } })
    // The coding it does not read is found before the gzip under it is (not) decoded.
    const unread = await call("PUT", "/contacts/447400123456", "not gzip", "zstd, gzip")
    expect(unread).toMatchObject({ status: 415, json: { error: { code: "UNSUPPORTED_CONTENT_ENCODING" } } })
    expect(await call("PUT", "/contacts/447400123456", encode(body, ["gzip", "br", "deflate"]), "gzip, identity, br, deflate"))
      .toMatchObject({ status: 200, json: { first_name: "Deep" } })
  })

  it("refuses a body that decodes past 1 MiB (413) and one that is not what its coding says (400)", async () => {
    const bomb = Zlib.gzipSync(JSON.stringify({ first_name: "x".repeat(4 * 1024 * 1024) }))
    expect(bomb.length).toBeLessThan(64 * 1024)
    expect(await call("PUT", "/contacts/447400123456", bomb, "gzip")).toMatchObject({ status: 413, json: { error: { code: "PAYLOAD_TOO_LARGE" } } })
    for (const coding of ["gzip", "deflate", "br"]) {
      expect(await call("PUT", "/contacts/447400123456", "{\"first_name\": \"plain\"}", coding))
        .toMatchObject({ status: 400, json: { error: { code: "MALFORMED_JSON" } } })
    }
  })

  it("holds the decoded body to the same 1 MiB as a body sent as is: 413 exactly when it decodes past it (property)", async () => {
    // A bomb of gigabytes says nothing of where the limit is: bodies around it do.
    const around = fc.integer({ min: JsonBody.maxBytes - 64, max: JsonBody.maxBytes + 64 })
    await fc.assert(
      fc.asyncProperty(around, fc.constantFrom<Coding>("gzip", "deflate", "br"), async (size, coding) => {
        const prefix = "{\"first_name\": \""
        const body = prefix + "x".repeat(size - prefix.length - 2) + "\"}"
        expect(body.length).toBe(size)
        const answer = await call("PUT", "/contacts/447400123456", encode(body, [coding]), coding)
        expect(answer.status === 413, `${size} bytes in ${coding}: ${answer.status}`).toBe(size > JsonBody.maxBytes)
      }),
      { numRuns: 20, examples: [[JsonBody.maxBytes, "gzip"], [JsonBody.maxBytes + 1, "gzip"]] }
    )
  })
})
