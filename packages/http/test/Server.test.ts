/**
 * A real server on an ephemeral 127.0.0.1 port over SQLite (and PostgreSQL when configured), driven
 * by plain `fetch` with the interface's sample requests: every endpoint, every documented error.
 * Over 400 lines on purpose: the endpoints and their refusals share one server per store and its helpers.
 */
import * as Http from "node:http"
import { ContactBook, Errors } from "@smsbook/core"
import * as ApiKeyStore from "@smsbook/store/ApiKeyStore"
import * as Store from "@smsbook/store/Store"
import { Effect, ManagedRuntime, Option, Redacted } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as ErrorBody from "../src/ErrorBody.ts"
import { type Running, start, withLockedBook } from "./running.ts"
import * as Samples from "./samples.ts"
import * as Stores from "./stores.ts"

const contactFields = [
  "added_from", "country_code", "first_name", "full_name", "last_name", "monitoring", "msisdn", "phone_number", "profile_uid", "status", "tags"
]

/** Every code the server may answer with, from core's catalog and the HTTP layer's. */
const knownCodes = new Map<string, { readonly number: number; readonly status: number }>([
  ...Object.values(Errors.catalog).map((info) => [info.code, info] as const),
  ...Object.values(ErrorBody.httpCatalog).map((info) => [info.code, info] as const)
])

describe.each(Stores.kinds)("HTTP server over %s", (kind) => {
  let store: Stores.TestStore
  let server: Running
  let key = ""
  let revokedKey = ""

  beforeAll(async () => {
    store = await Stores.fresh(kind)
    const keys = ManagedRuntime.make(Store.layer(store.url))
    key = Redacted.value((await keys.runPromise(Effect.flatMap(Effect.service(ApiKeyStore.ApiKeyStore), (s) => s.create("tests")))).secret)
    const revoked = await keys.runPromise(Effect.flatMap(Effect.service(ApiKeyStore.ApiKeyStore), (s) => s.create("old")))
    revokedKey = Redacted.value(revoked.secret)
    await keys.runPromise(Effect.flatMap(Effect.service(ApiKeyStore.ApiKeyStore), (s) => s.revoke(revoked.key.id)))
    await keys.dispose()
    server = await start({ store: store.url })
  })

  afterAll(async () => {
    await server?.close()
    await store?.drop()
  })

  const call = async (method: string, path: string, body?: unknown, options: { readonly key?: string | null; readonly raw?: string } = {}) => {
    const auth = options.key === null ? undefined : options.key ?? key
    const response = await fetch(server.url + path, {
      method,
      headers: { "content-type": "application/json", ...(auth === undefined ? {} : { authorization: `Bearer ${auth}` }) },
      ...(options.raw !== undefined ? { body: options.raw } : body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return {
      status: response.status,
      type: response.headers.get("content-type") ?? "",
      challenge: response.headers.get("www-authenticate"),
      json: text === "" ? undefined : JSON.parse(text)
    }
  }

  /** A request `fetch` will not send (a `GET` with a body), with the key and `Content-Length`. */
  const withBody = (method: string, path: string, body: string) =>
    new Promise<{ readonly status: number; readonly json: unknown }>((resolve, reject) => {
      const request = Http.request(server.url + path, {
        method,
        headers: { "content-type": "application/json", authorization: `Bearer ${key}`, "content-length": Buffer.byteLength(body) }
      }, (response) => {
        let text = ""
        response.on("data", (chunk: Buffer) => void (text += chunk.toString()))
        response.on("end", () => resolve({ status: response.statusCode ?? 0, json: JSON.parse(text) }))
      })
      // The server may answer 413 and close before the body is written.
      request.on("error", (error: NodeJS.ErrnoException) => error.code === "EPIPE" || error.code === "ECONNRESET" ? undefined : reject(error))
      request.end(body)
    })

  /** Asserts the documented error body: the code's own number and status, and the response's status. */
  const expectError = (answer: { readonly status: number; readonly json: unknown }, code: string) => {
    const known = knownCodes.get(code)
    expect(known, `${code} is documented`).toBeDefined()
    expect(answer.json).toEqual({
      error: { code, number: known?.number, status: known?.status, message: expect.any(String), details: expect.any(Object) }
    })
    expect(answer.status).toBe(known?.status)
  }

  it("answers /health without a key once the store answers", async () => {
    const health = await call("GET", "/health", undefined, { key: null })
    expect(health).toMatchObject({ status: 200, json: { status: "ready", store: kind } })
  })

  it("refuses every endpoint of the interface without a live key (401)", async () => {
    const endpoints: ReadonlyArray<readonly [string, string, unknown?]> = [
      ["GET", "/messages"],
      ["POST", "/messages/send_to_contact", Samples.sendToContact],
      ["POST", "/messages/send", Samples.sendToGroups],
      ["GET", "/contacts"],
      ["GET", `/contacts/${Samples.msisdn}`],
      ["POST", `/contacts/${Samples.msisdn}`, Samples.createContact],
      ["PUT", `/contacts/${Samples.msisdn}`, Samples.editContact],
      ["DELETE", `/contacts/${Samples.msisdn}`]
    ]
    for (const [method, path, body] of endpoints) {
      for (const credential of [null, "wrong", revokedKey, ""]) {
        const refused = await call(method, path, body, { key: credential })
        expectError(refused, "UNAUTHORIZED")
        expect(refused.challenge).toBe("Bearer")
      }
    }
    // nothing was created by the refused requests
    expectError(await call("GET", `/contacts/${Samples.msisdn}`), "CONTACT_NOT_FOUND")
  })

  it("creates, reads, lists, edits and deletes a contact with the samples' bodies", async () => {
    const created = await call("POST", `/contacts/${Samples.msisdn}`, Samples.createContact)
    expect(created.status).toBe(201)
    expect(Object.keys(created.json).sort()).toEqual(contactFields)
    expect(created.json).toMatchObject({
      msisdn: Samples.msisdn,
      phone_number: "7400123456",
      country_code: "44",
      first_name: "Ann",
      last_name: "Lee",
      full_name: "Ann Lee",
      added_from: "API",
      status: "SUBSCRIBED",
      tags: [],
      monitoring: false,
      profile_uid: expect.stringMatching(/^[0-9a-f]{32}$/)
    })
    expectError(await call("POST", `/contacts/${Samples.msisdn}`, Samples.createContact), "CONTACT_EXISTS")

    expect(await call("GET", `/contacts/${Samples.msisdn}`)).toMatchObject({ status: 200, json: created.json })

    const edited = await call("PUT", `/contacts/${Samples.msisdn}`, Samples.editContact)
    expect(edited).toMatchObject({ status: 200, json: { ...created.json, first_name: "Anne", last_name: "Leigh", full_name: "Anne Leigh" } })
    const tagged = await call("PUT", `/contacts/${Samples.msisdn}`, { tags: ["news"], monitoring: "1" })
    expect(tagged.json).toMatchObject({ tags: ["news"], monitoring: true })

    // query names in any case, the samples' SUSCRIBED, booleans as "1"
    const listed = await call("GET", "/contacts?limit=10&START=0&query=leigh&status=SUSCRIBED")
    expect(listed).toMatchObject({ status: 200, json: [tagged.json] })
    const short = await call("GET", "/contacts?shortResults=1")
    expect(short.json).toEqual([{ msisdn: Samples.msisdn, first_name: "Anne", last_name: "Leigh", status: "SUBSCRIBED" }])
    expect(await call("GET", "/contacts?Status=CANCELLED")).toMatchObject({ status: 200, json: [] })

    expect(await call("POST", `/contacts/${Samples.other}`, { first_name: "Bo" })).toMatchObject({ status: 201 })
    expect(await call("DELETE", `/contacts/${Samples.other}`)).toMatchObject({ status: 200, json: { msisdn: Samples.other, deleted: true } })
    expectError(await call("DELETE", `/contacts/${Samples.other}`), "CONTACT_NOT_FOUND")
    expectError(await call("PUT", `/contacts/${Samples.other}`, Samples.editContact), "CONTACT_NOT_FOUND")
    expectError(await call("GET", `/contacts/${Samples.other}`), "CONTACT_NOT_FOUND")
  })

  it("sends to one number and to groups with the samples' bodies, then lists them", async () => {
    const sent = await call("POST", "/messages/send_to_contact", Samples.sendToContact)
    expect(sent.status).toBe(201)
    expect(sent.json).toMatchObject({
      message_id: expect.any(String),
      id: "12345",
      short_code: "smsbook",
      country: "44",
      msisdn: Samples.msisdn,
      direction: "MT",
      status: "READY",
      message: Samples.sendToContact.message,
      total_recipients: 1,
      sent_count: 0,
      error_count: 0,
      total_monitors: 0,
      is_scheduled: false,
      is_billable: true,
      created_on: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      created_by: "tester",
      type: 1
    })
    const misdn = await call("POST", "/messages/send_to_contact", Samples.sendToContactMisdn)
    expect(misdn).toMatchObject({ status: 201, json: { msisdn: "447400123457", status: "READY" } })

    const group = await call("POST", "/messages/send", Samples.sendToGroups)
    expect(group.status).toBe(202)
    expect(group.json).toMatchObject({ status: "PENDING", total_recipients: 0, is_billable: false, is_scheduled: false, type: 2, direction: "MT" })
    for (const absent of ["message_id", "msisdn", "country", "created_by"]) expect(group.json).not.toHaveProperty(absent)

    const all = await call("GET", `/messages?${Samples.messagesWindow}&Limit=10`)
    expect(all.status).toBe(200)
    expect(all.json.map((message: { readonly message: string }) => message.message)).toEqual([
      Samples.sendToContact.message,
      Samples.sendToContactMisdn.message,
      Samples.sendToGroups.message
    ])
    const one = await call("GET", `/messages?MISDN=${Samples.msisdn}&direction=mt`)
    expect(one.json).toEqual([sent.json])
    // A parameter given twice with one value is that value (two that differ are refused: see the refusals).
    expect(await call("GET", `/messages?misdn=${Samples.msisdn}&misdn=${Samples.msisdn}&direction=mt`)).toMatchObject({ status: 200, json: [sent.json] })
    expect(await call("GET", `/messages?misdn=%2B${Samples.msisdn}&misdn=${Samples.msisdn}&direction=mt`)).toMatchObject({ status: 200, json: [sent.json] })
    const byGroup = await call("GET", "/messages?group_short_name=NEWS")
    expect(byGroup.json).toHaveLength(1)
    expect(await call("GET", "/messages?direction=MO")).toMatchObject({ status: 200, json: [] })
  })

  it("answers every documented refusal with its code, number and status", async () => {
    const tooLong = "x".repeat(200)
    expectError(await call("POST", "/messages/send_to_contact", { ...Samples.sendToContact, id: "i".repeat(41) }), "EXTERNAL_ID_TOO_LONG")
    expectError(await call("POST", "/messages/send_to_contact", { msisdn: Samples.msisdn, message: tooLong }), "MESSAGE_TOO_LONG")
    expectError(await call("POST", "/messages/send_to_contact", { msisdn: "12", message: "hi" }), "INVALID_MSISDN")
    expectError(await call("POST", "/messages/send_to_contact", { msisdn: Samples.msisdn }), "INVALID_FIELD")
    expectError(await call("POST", "/messages/send_to_contact", Samples.sendToContact), "DUPLICATE_SEND")
    expectError(await call("POST", "/messages/send", { message: "to everybody?" }), "MISSING_TAGS")
    expectError(await call("POST", "/messages/send", Samples.sendToGroups), "DUPLICATE_SEND")
    expectError(await call("POST", `/contacts/${Samples.other}`, { ...Samples.createContact, status: "SUBSCRIBED" }), "INVALID_FIELD")
    expectError(await call("POST", `/contacts/${Samples.other}`, Samples.createContact), "INVALID_FIELD")
    expectError(await call("PUT", `/contacts/${Samples.msisdn}`, { status: "CANCELLED" }), "INVALID_FIELD")
    expectError(await call("GET", "/contacts/abc"), "INVALID_MSISDN")
    expectError(await call("GET", "/contacts?Limit=1001"), "INVALID_PARAMETER")
    expectError(await call("GET", "/contacts?Limit=5&limit=6"), "INVALID_PARAMETER")
    expectError(await call("GET", "/contacts?Limit=5&Limit=6"), "INVALID_PARAMETER")
    // Names every object has as properties are parameters like any other: unknown ones are ignored.
    for (const name of ["__proto__", "constructor", "toString"]) {
      expect([name, (await call("GET", `/contacts?${name}=1`)).status]).toEqual([name, 200])
      expect([name, (await call("GET", `/messages?${name}=1&${name}=1`)).status]).toEqual([name, 200])
    }
    expectError(await call("GET", "/messages?misdn=447400123456&misdn=447400123457"), "INVALID_PARAMETER")
    // A number that is none is INVALID_MSISDN, as in a body, naming its parameter.
    const badNumber = await call("GET", "/messages?misdn=12")
    expectError(badNumber, "INVALID_MSISDN")
    expect(badNumber.json).toMatchObject({ error: { details: { parameter: "misdn", value: "12" } } })
    // A date that is no HTTP-date (here a weekday that is not the date's) is the catalog's INVALID_HTTP_DATE, naming its parameter.
    const badDate = await call("GET", "/messages?start_date=Sun,%2021%20Nov%202020%2010:15:00%20GMT")
    expectError(badDate, "INVALID_HTTP_DATE")
    expect(badDate.json).toMatchObject({ error: { details: { parameter: "start_date" } } })
    expectError(await call("GET", "/messages?direction=SIDEWAYS"), "INVALID_PARAMETER")

    // an opted-out number is refused for individual sends
    const book = ManagedRuntime.make(Store.layer(store.url))
    await book.runPromise(ContactBook.optOut(Samples.msisdn))
    await book.dispose()
    expectError(await call("POST", "/messages/send_to_contact", { msisdn: Samples.msisdn, message: "still there?" }), "RECIPIENT_OPTED_OUT")
  })

  it("answers malformed, oversized and misrouted requests with an error body, never a stack trace", async () => {
    for (const raw of ["{\"msisdn\": ", "not json", "[1, 2"]) {
      const answer = await call("POST", "/messages/send_to_contact", undefined, { raw })
      expectError(answer, "MALFORMED_JSON")
      expect(answer.type).toContain("application/json")
    }
    expectError(await call("POST", `/contacts/${Samples.other}`, undefined, { raw: "{\"first_name\": \"a\"" }), "MALFORMED_JSON")
    const big = JSON.stringify({ msisdn: Samples.msisdn, message: "x".repeat(1024 * 1024) })
    expectError(await call("POST", "/messages/send_to_contact", undefined, { raw: big }), "PAYLOAD_TOO_LARGE")
    // A method whose body is never read still has it refused by its declared size, before the key is asked for.
    expectError(await call("DELETE", `/contacts/${Samples.msisdn}`, undefined, { raw: big }), "PAYLOAD_TOO_LARGE")
    expectError(await call("DELETE", `/contacts/${Samples.msisdn}`, undefined, { raw: big, key: null }), "PAYLOAD_TOO_LARGE")
    expectError(await withBody("GET", `/contacts/${Samples.msisdn}`, big), "PAYLOAD_TOO_LARGE")
    expect(await withBody("GET", "/health", "{}")).toMatchObject({ status: 200 })
    expectError(await call("GET", "/no/such/endpoint"), "ROUTE_NOT_FOUND")
    expectError(await call("PATCH", `/contacts/${Samples.msisdn}`, {}), "ROUTE_NOT_FOUND")
    // A path parameter of any length reaches its endpoint, which says what is wrong with it.
    for (const msisdn of ["4".repeat(200), "x".repeat(300)]) expectError(await call("GET", `/contacts/${msisdn}`), "INVALID_MSISDN")
    // So does one the router cannot decode (not valid percent-encoding), on every method of the path.
    for (const [method, msisdn] of [["GET", "%FF"], ["PUT", "44740012345%C0%AF"], ["DELETE", "44740012345%ZZ"], ["POST", "%E0%A4%A"]] as const) {
      const body = method === "PUT" || method === "POST" ? {} : undefined
      expectError(await call(method, `/contacts/${msisdn}`, body), "INVALID_MSISDN")
      // Without a live key, 401 first, as on every endpoint.
      for (const credential of [null, revokedKey]) expectError(await call(method, `/contacts/${msisdn}`, body, { key: credential }), "UNAUTHORIZED")
    }
    expectError(await call("PATCH", "/contacts/%FF", {}), "ROUTE_NOT_FOUND")
  })

  it("reads an empty body as no fields: the missing one is named, and a contact needs none", async () => {
    const empty = await call("POST", "/messages/send_to_contact", undefined, { raw: "" })
    expectError(empty, "INVALID_FIELD")
    expect(empty.json).toMatchObject({ error: { details: { field: "msisdn" } } })
    // A number no other test uses.
    expect(await call("POST", "/contacts/447400654322", undefined, { raw: " " })).toMatchObject({ status: 201, json: { status: "SUBSCRIBED" } })
  })

  it("refuses a numeric id that is not a safe integer, and a field nested too deeply to show, as a field's fault (400)", async () => {
    for (const id of ["1.5", "1e21", "9007199254740993"]) {
      const answer = await call("POST", "/messages/send_to_contact", undefined, { raw: `{"msisdn": "${Samples.msisdn}", "message": "x", "id": ${id}}` })
      expectError(answer, "INVALID_FIELD")
      expect(answer.json).toMatchObject({ error: { details: { field: "id" } } })
    }
    const deep = `{"msisdn": "${Samples.msisdn}", "message": ${"[".repeat(5000)}${"]".repeat(5000)}}`
    const answer = await call("POST", "/messages/send_to_contact", undefined, { raw: deep })
    expectError(answer, "INVALID_FIELD")
    expect(answer.json).toMatchObject({ error: { details: { field: "message" } } })
    // A tag longer than every store can index names itself, on every endpoint that takes tags.
    const long = "t".repeat(256)
    for (const [method, path, body] of [["PUT", `/contacts/${Samples.msisdn}`, { tags: ["ok", long] }], ["POST", "/messages/send", { tags: [long], message: "x" }]] as const) {
      const refused = await call(method, path, body)
      expectError(refused, "INVALID_FIELD")
      // The value is echoed back cut to 200 characters, saying how long it was.
      expect(refused.json).toMatchObject({
        error: { details: { field: expect.stringMatching(/^tags\.[01]$/), value: `${"t".repeat(200)}… (256 characters)` } }
      })
    }
    // A megabyte sent is not answered with two: the message and `details.value` each quote 200 characters of it.
    const huge = "9".repeat(1_000_000)
    const echo = await call("POST", "/messages/send_to_contact", { msisdn: huge, message: "x" })
    expectError(echo, "INVALID_MSISDN")
    expect(JSON.stringify(echo.json).length).toBeLessThan(2_000)
    expect(echo.json).toMatchObject({ error: { message: expect.stringContaining(`${"9".repeat(200)}… (1000000 characters)`) } })
    // Bounded writes keep every page of a list small enough to answer: too many tags, a name too long.
    const many = Array.from({ length: 51 }, (_, i) => `group-${i}`)
    for (const [method, path, body] of [["PUT", `/contacts/${Samples.msisdn}`, { tags: many }], ["POST", "/messages/send", { tags: many, message: "x" }]] as const) {
      const refused = await call(method, path, body)
      expectError(refused, "INVALID_FIELD")
      expect(refused.json).toMatchObject({ error: { details: { field: "tags", value: "51 tags" } } })
    }
    const name = "n".repeat(256)
    for (const [method, path] of [["POST", "/contacts/447400999001"], ["PUT", `/contacts/${Samples.msisdn}`]] as const) {
      const refused = await call(method, path, { last_name: name })
      expectError(refused, "INVALID_FIELD")
      expect(refused.json).toMatchObject({ error: { details: { field: "last_name" } } })
    }
    expect((await call("GET", "/contacts/447400999001")).status).toBe(404)
  })

  /** A body sent in chunks, without `Content-Length`: the limit is kept while the bytes arrive. */
  const chunked = (path: string, parts: ReadonlyArray<string>) =>
    new Promise<{ readonly status: number; readonly json: unknown }>((resolve, reject) => {
      const request = Http.request(server.url + path, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}`, "transfer-encoding": "chunked" }
      }, (response) => {
        let text = ""
        response.on("data", (chunk: Buffer) => void (text += chunk.toString()))
        response.on("end", () => resolve({ status: response.statusCode ?? 0, json: JSON.parse(text) }))
      })
      // The server may answer 413 and close before every chunk is written.
      request.on("error", (error: NodeJS.ErrnoException) => error.code === "EPIPE" || error.code === "ECONNRESET" ? undefined : reject(error))
      const write = (index: number) => {
        if (index === parts.length) return void request.end()
        request.write(parts[index], () => write(index + 1))
      }
      write(0)
    })

  it("reads a chunked body, and refuses one that grows past 1 MiB (413)", async () => {
    // A number no other test opts out.
    const msisdn = "447400654321"
    const text = JSON.stringify({ msisdn, message: "in chunks" })
    const sent = await chunked("/messages/send_to_contact", [text.slice(0, 10), text.slice(10, 25), text.slice(25)])
    expect(sent).toMatchObject({ status: 201, json: { msisdn, message: "in chunks", status: "READY" } })
    const chunk = "x".repeat(64 * 1024)
    const big = await chunked("/messages/send_to_contact", ["{\"msisdn\": \"" + Samples.msisdn + "\", \"message\": \"", ...Array.from({ length: 20 }, () => chunk), "\"}"])
    expectError(big, "PAYLOAD_TOO_LARGE")
  })

  it("exactly one of 50 simultaneous sends with the same id is created; 49 are DuplicateSend", async () => {
    const body = { msisdn: Samples.other, message: "once only", id: `race-${kind}` }
    const answers = await Promise.all(Array.from({ length: 50 }, () => call("POST", "/messages/send_to_contact", body)))
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1)
    const refused = answers.filter((answer) => answer.status === 409)
    expect(refused).toHaveLength(49)
    for (const answer of refused) expectError(answer, "DUPLICATE_SEND")
    const stored = await call("GET", `/messages?misdn=${Samples.other}&Limit=1000`)
    expect(stored.json.filter((message: { readonly id?: string }) => message.id === body.id)).toHaveLength(1)
  })

  it("serves the document's paths exactly: another case, a trailing or doubled slash is no endpoint (404)", async () => {
    for (const path of ["/Contacts", "/CONTACTS/447400123456", "/Messages", "/messages/", "//contacts/447400123456", "/contacts/447400123456/", "/contacts//"]) {
      expectError(await call("GET", path), "ROUTE_NOT_FOUND")
    }
    // `/contacts/` is `/contacts/:msisdn` with an empty number (it served the list).
    expectError(await call("GET", "/contacts/"), "INVALID_MSISDN")
  })

  it("writes one structured access-log line per request", async () => {
    const before = server.log.length
    await call("GET", "/health", undefined, { key: null })
    await call("GET", "/contacts/1", undefined, { key: null })
    await call("GET", `/contacts/${Samples.msisdn}`)
    await call("GET", `/Contacts/${Samples.msisdn}?misdn=${Samples.msisdn}`)
    await call("GET", "/Contacts/+44-7400-123-456")
    await call("GET", "/Contacts/%2B44%207400%20123456")
    const lines = server.log.slice(before).map((line) => JSON.parse(line))
    expect(lines).toEqual([
      expect.objectContaining({ method: "GET", path: "/health", status: 200, ms: expect.any(Number), remote: "127.0.0.1" }),
      expect.objectContaining({ method: "GET", path: "/contacts/:msisdn", status: 401 }),
      expect.objectContaining({ method: "GET", path: "/contacts/:msisdn", status: 200 }),
      expect.objectContaining({ method: "GET", path: "/Contacts/:number", status: 404 }),
      // Written with separators or escapes, a number is masked all the same.
      expect.objectContaining({ method: "GET", path: "/Contacts/:number", status: 404 }),
      expect.objectContaining({ method: "GET", path: "/Contacts/:number", status: 404 })
    ])
    // No phone number in the log: not in paths, not in query strings.
    expect(server.log.some((line) => line.includes(Samples.msisdn))).toBe(false)
    expect(Option.isNone(Option.fromNullishOr(lines[0].failure))).toBe(true)
  })

  it("law: a path that is no endpoint logs a run of six digits or more as :number, and a shorter one as sent", async () => {
    // Escapes are left out: a run never starts inside one, so `%20` before a number stays as sent.
    const separators = fc.constantFrom("", "-", ".", "(", ")")
    const written = fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), separators), { minLength: 1, maxLength: 15 })
    await fc.assert(
      fc.asyncProperty(written, async (digits) => {
        const number = digits.map(([digit, separator], i) => (i === 0 ? "" : separator) + String(digit)).join("")
        const before = server.log.length
        await call("GET", `/Contacts/x${number}x`)
        const line = JSON.parse(server.log.slice(before).join("\n") || "{}")
        expect(line.path).toBe(digits.length >= 6 ? "/Contacts/x:numberx" : `/Contacts/x${number}x`)
      }),
      { numRuns: 30, examples: [[Array.from({ length: 5 }, () => [4, ""] as [number, string])], [Array.from({ length: 6 }, () => [4, ""] as [number, string])]] }
    )
  })
})

describe("the access log of a failure the API answers itself", () => {
  it("a store failure answered 500 STORE_FAILURE: its line carries the cause", () =>
    // Another process's write lock on the book: the send waits 200 ms for it, then fails.
    withLockedBook("200 millis", async (server) => {
      const before = server.log.length
      const response = await fetch(`${server.url}/messages/send_to_contact`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ msisdn: Samples.msisdn, message: "held" })
      })
      expect(response.status).toBe(500)
      expect(await response.json()).toMatchObject({ error: { code: "STORE_FAILURE" } })
      const line = JSON.parse(server.log.slice(before).find((text) => text.includes("send_to_contact")) ?? "{}")
      expect(line).toMatchObject({ status: 500, failure: expect.stringMatching(/^StoreFailure: /) })
    }))
})

