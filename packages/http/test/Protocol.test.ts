/**
 * HTTP/1.1's own rules on a real server (127.0.0.1, a SQLite book, a live key) with real clients: a client that waits
 * for `100 Continue` gets it when its body is going to be read, a request without `Host` or with `CONNECT` is refused in
 * JSON, and an expectation other than `100-continue` is no reason for an answer outside the document.
 */
import * as Http from "node:http"
import { connect } from "node:net"
import { describe, expect, it } from "vitest"
import { serving } from "./running.ts"

describe("HTTP/1.1 at the wire", () => {
  const server = serving()

  /**
   * A POST by Node's client with `Expect: 100-continue`: it sends the body only once the server says `100 Continue`
   * (Node's client waits for it without a limit, where curl gives up after 1 s), and reports whether it was said.
   */
  const expecting = (path: string, body: string, headers: Http.OutgoingHttpHeaders, agent: Http.Agent | false = false) =>
    new Promise<{ readonly continued: boolean; readonly status: number; readonly connection: string | undefined; readonly json: unknown }>(
      (resolve, reject) => {
        let continued = false
        const request = Http.request(server.url + path, {
          method: "POST",
          agent,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), expect: "100-continue", ...headers }
        }, (response) => {
          let text = ""
          response.on("data", (chunk: Buffer) => void (text += chunk.toString()))
          response.on("end", () => {
            resolve({ continued, status: response.statusCode ?? 0, connection: response.headers.connection, json: JSON.parse(text) })
            request.destroy()
          })
        })
        request.on("continue", () => {
          continued = true
          request.end(body)
        })
        request.on("error", reject)
        request.flushHeaders()
      }
    )

  it("says 100 Continue to a client that waits for it before the body is read, and only then", async () => {
    const body = JSON.stringify({ msisdn: "447400123456", message: "continue" })
    // The connection stays open for the next request: the body was read whole.
    const keepAlive = new Http.Agent({ keepAlive: true })
    const sent = await expecting("/messages/send_to_contact", body, { authorization: `Bearer ${server.key}` }, keepAlive)
    keepAlive.destroy()
    expect(sent).toMatchObject({ continued: true, status: 201, connection: "keep-alive", json: { message: "continue" } })
    // A body refused before it is read gets the refusal instead: declared over 1 MiB, or without a live key.
    const tooLarge = await expecting("/messages/send_to_contact", "x".repeat(2 * 1024 * 1024), { authorization: `Bearer ${server.key}` })
    expect(tooLarge).toMatchObject({ continued: false, status: 413, json: { error: { code: "PAYLOAD_TOO_LARGE" } } })
    const noKey = await expecting("/messages/send_to_contact", body, {})
    expect(noKey).toMatchObject({ continued: false, status: 401, json: { error: { code: "UNAUTHORIZED" } } })
  })

  /** What the server answered `text`, written on a connection of its own, until it closed it. */
  const raw = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(server.url)
      const socket = connect(Number(port), hostname, () => socket.write(text))
      let answer = ""
      socket.on("data", (chunk) => void (answer += chunk.toString()))
      socket.on("error", reject)
      socket.on("close", () => resolve(answer))
    })

  const bodyOf = (answer: string): unknown => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))

  it("refuses an HTTP/1.1 request without Host as MALFORMED_REQUEST in the JSON error body; HTTP/1.0 needs none", async () => {
    const noHost = await raw(`GET /contacts HTTP/1.1\r\nAuthorization: Bearer ${server.key}\r\nConnection: close\r\n\r\n`)
    expect(noHost).toMatch(/^HTTP\/1\.1 400 /)
    expect(bodyOf(noHost)).toEqual({
      error: { code: "MALFORMED_REQUEST", number: 3009, status: 400, message: expect.stringContaining("Host"), details: {} }
    })
    const older = await raw(`GET /contacts HTTP/1.0\r\nAuthorization: Bearer ${server.key}\r\n\r\n`)
    expect(older).toMatch(/^HTTP\/1\.1 200 /)
    expect(bodyOf(older)).toEqual([])
    expect(server.log.map((line) => JSON.parse(line))).toContainEqual(expect.objectContaining({ method: "GET", path: "/contacts", status: 400 }))
  })

  it("serves a request whose Expect names something other than 100-continue as it serves one without (417 is a MAY)", async () => {
    // Node answered these itself: 417 with an empty body and no log line, a status /openapi.json declares nowhere.
    const body = JSON.stringify({ msisdn: "447400123456", message: "expected" })
    const answer = await raw(
      `POST /messages/send_to_contact HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.key}\r\nExpect: something-else\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
    )
    expect(answer).toMatch(/^HTTP\/1\.1 201 /)
    expect(bodyOf(answer)).toMatchObject({ message: "expected", status: "READY" })
    const noKey = await raw(`GET /contacts HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nConnection: close\r\n\r\n`)
    expect(noKey).toMatch(/^HTTP\/1\.1 401 /)
    expect(bodyOf(noKey)).toMatchObject({ error: { code: "UNAUTHORIZED" } })
  })

  it("answers CONNECT, which no endpoint takes, ROUTE_NOT_FOUND in the JSON error body, and logs it", async () => {
    // Node closed the connection without a word when nothing listened for CONNECT.
    const answer = await raw(`CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\nAuthorization: Bearer ${server.key}\r\n\r\n`)
    expect(answer).toMatch(/^HTTP\/1\.1 404 /)
    expect(answer.toLowerCase()).toContain("connection: close")
    expect(bodyOf(answer)).toEqual({
      error: { code: "ROUTE_NOT_FOUND", number: 3004, status: 404, message: expect.any(String), details: {} }
    })
    expect(server.log.map((line) => JSON.parse(line))).toContainEqual(expect.objectContaining({ method: "CONNECT", status: 404 }))
  })
})
