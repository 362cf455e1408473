/**
 * The served /openapi.json told true by tools nobody here wrote: a third-party validator accepts it,
 * openapi-typescript's types of it are the ones the type check used, and an openapi-fetch client built on
 * those types calls every endpoint of a real server and gets what the document promises.
 */
import { existsSync, readFileSync } from "node:fs"
import { connect } from "node:net"
import SwaggerParser from "@apidevtools/swagger-parser"
import createClient from "openapi-fetch"
import { beforeAll, describe, expect, it } from "vitest"
import { serving, start } from "./running.ts"
import type { paths } from "./generated/openapi.ts"
import { apiDocument, generate, generatedPath, write } from "./openapiTypes.ts"
import * as Samples from "./samples.ts"

describe("the served OpenAPI document", () => {
  const server = serving({ noAuth: true })
  let document: unknown

  beforeAll(async () => {
    document = await (await fetch(`${server.url}/openapi.json`)).json()
  })

  it("is a valid OpenAPI 3.1 document (@apidevtools/swagger-parser)", async () => {
    const validated = await SwaggerParser.validate(structuredClone(document) as never)
    expect("openapi" in validated ? validated.openapi : "swagger 2").toBe("3.1.0")
    expect(Object.keys(validated.paths ?? {}).sort()).toEqual([
      "/contacts",
      "/contacts/{msisdn}",
      "/health",
      "/messages",
      "/messages/send",
      "/messages/send_to_contact"
    ])
  })

  it("declares the bearer scheme on every endpoint of the interface, not on /health", () => {
    const spec = structuredClone(document) as {
      paths: Record<string, Record<string, { security?: ReadonlyArray<unknown> }>>
    }
    for (const [path, operations] of Object.entries(spec.paths)) {
      for (const operation of Object.values(operations)) {
        expect(operation.security, path).toEqual(path === "/health" ? [] : [{ bearer: [] }])
      }
    }
  })

  it("declares misdn in the send-to-contact body as in the create body: the interface's own request passes the document", () => {
    const spec = structuredClone(document) as {
      components: { schemas: Record<string, { properties: Record<string, unknown>; required?: ReadonlyArray<string> }> }
    }
    const [send, create] = [spec.components.schemas["SendToContactBody"], spec.components.schemas["CreateContactBody"]]
    expect(send?.properties["misdn"]).toEqual(create?.properties["misdn"])
    expect(send?.properties["msisdn"]).toEqual(create?.properties["msisdn"])
    expect(send?.required).toEqual(["message"])
  })

  it("declares the refusals /health answers: 400 for an HTTP/1.1 request without Host, as every endpoint without a body", async () => {
    // Refused by the outermost middleware before any route, on /health too, which declared only 200, 413 and 503.
    const answer = await new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(server.url)
      const socket = connect(Number(port), hostname, () => socket.write("GET /health HTTP/1.1\r\nConnection: close\r\n\r\n"))
      let text = ""
      socket.on("data", (chunk) => void (text += chunk.toString()))
      socket.on("error", reject)
      socket.on("close", () => resolve(text))
    })
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    const spec = structuredClone(document) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
    }
    const responses = (path: string) => Object.keys(spec.paths[path]?.["get"]?.responses ?? {}).sort()
    expect(responses("/health")).toContain("400")
    // Every status a bodiless endpoint of the interface declares beside its own (401, 404) is declared by /health too.
    for (const path of ["/contacts", "/messages"]) {
      expect(responses(path).filter((status) => status !== "200" && status !== "401").every((status) => responses("/health").includes(status)), path)
        .toBe(true)
    }
  })

  it("describes HEAD, which the server answers for every GET (its status and headers, no content)", async () => {
    const spec = structuredClone(document) as {
      paths: Record<string, Record<string, { operationId?: string; responses: Record<string, { content?: unknown }> }>>
    }
    for (const [path, operations] of Object.entries(spec.paths)) {
      const { get, head } = operations
      if (get === undefined) continue
      expect(Object.keys(head?.responses ?? {}), path).toEqual(Object.keys(get.responses))
      for (const response of Object.values(head?.responses ?? {})) expect(response.content, path).toBeUndefined()
      expect(head?.operationId, path).not.toBe(get.operationId)
    }
    // What the server answers: GET's status, no body.
    for (const path of ["/contacts", "/contacts/447400123456", "/messages", "/health"]) {
      const [got, headed] = [await fetch(server.url + path), await fetch(server.url + path, { method: "HEAD" })]
      expect(headed.status, path).toBe(got.status)
      expect(await headed.text(), path).toBe("")
      expect(spec.paths[path.replace(/\/\d+$/, "/{msisdn}")]?.["head"]?.responses[String(headed.status)], path).toBeDefined()
    }
  })

  it("declares on every operation the refusals Node answers before any route: 408 for headers too slow, 431 too large", async () => {
    const answerTo = (url: string, text: string) =>
      new Promise<string>((resolve, reject) => {
        const { hostname, port } = new URL(url)
        const socket = connect(Number(port), hostname, () => socket.write(text))
        let answer = ""
        socket.on("data", (chunk) => void (answer += chunk.toString()))
        socket.on("error", reject)
        socket.on("close", () => resolve(answer))
      })
    // A request line of a documented operation, then headers over 16 KiB, or headers that never end.
    expect(await answerTo(server.url, `GET /contacts HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 431 /)
    const slow = await start({ store: server.store, noAuth: true, headersTimeout: 300 })
    try {
      expect(await answerTo(slow.url, "GET /contacts HTTP/1.1\r\nHost: x\r\n")).toMatch(/^HTTP\/1\.1 408 /)
    } finally {
      await slow.close()
    }
    const spec = structuredClone(document) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }
    for (const [path, operations] of Object.entries(spec.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(expect.arrayContaining(["408", "431"]))
      }
    }
  })

  it("says how GET /messages refuses a number that is none: INVALID_MSISDN, as a body's", () => {
    const spec = structuredClone(document) as {
      paths: { "/messages": { get: { parameters: ReadonlyArray<{ name: string; schema: { description?: string } }> } } }
    }
    const misdn = spec.paths["/messages"].get.parameters.find((parameter) => parameter.name === "misdn")
    expect(misdn?.schema.description).toContain("INVALID_MSISDN")
  })

  it("promises whole, non-negative message counts: no \"Infinity\" or \"NaN\" text", () => {
    const spec = structuredClone(document) as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> }
    }
    const message = spec.components.schemas["Message"]
    for (const count of ["total_recipients", "sent_count", "error_count", "total_monitors"]) {
      expect(message?.properties[count], count).toMatchObject({ type: "integer", minimum: 0 })
      expect(JSON.stringify(message?.properties[count]), count).not.toContain("Infinity")
    }
  })

  it("is the document the type check's types come from (openapi-typescript)", async () => {
    const generated = await generate(document)
    expect(await generate(apiDocument())).toBe(generated)
    // Written by `npm run typecheck`; a run of the tests alone writes it for the next type check.
    if (existsSync(generatedPath)) expect(readFileSync(generatedPath, "utf8")).toBe(generated)
    else await write()
  })

  it("lets an openapi-fetch client built on those types call every endpoint", async () => {
    const client = createClient<paths>({ baseUrl: server.url })
    const msisdn = { params: { path: { msisdn: Samples.msisdn } } }

    const created = await client.POST("/contacts/{msisdn}", { ...msisdn, body: Samples.createContact })
    expect(created.response.status).toBe(201)
    expect(created.data).toMatchObject({ msisdn: Samples.msisdn, full_name: "Ann Lee", status: "SUBSCRIBED" })

    const exists = await client.POST("/contacts/{msisdn}", { ...msisdn, body: Samples.createContact })
    expect(exists.error).toMatchObject({ error: { code: "CONTACT_EXISTS", status: 409 } })

    const got = await client.GET("/contacts/{msisdn}", msisdn)
    expect(got.data?.profile_uid).toBe(created.data?.profile_uid)

    const edited = await client.PUT("/contacts/{msisdn}", { ...msisdn, body: { ...Samples.editContact, tags: ["news"] } })
    expect(edited.data).toMatchObject({ full_name: "Anne Leigh", tags: ["news"] })

    const listed = await client.GET("/contacts", { params: { query: { Limit: "10", Query: "anne" } } })
    expect(listed.data).toHaveLength(1)

    const sent = await client.POST("/messages/send_to_contact", { body: Samples.sendToContact })
    expect(sent.response.status).toBe(201)
    expect(sent.data).toMatchObject({ id: "12345", status: "READY", type: 1 })

    const misdn = await client.POST("/messages/send_to_contact", { body: Samples.sendToContactMisdn })
    expect(misdn.data).toMatchObject({ msisdn: "447400123457", status: "READY" })

    const duplicate = await client.POST("/messages/send_to_contact", { body: Samples.sendToContact })
    expect(duplicate.error?.error).toMatchObject({ code: "DUPLICATE_SEND", number: 1009, status: 409 })

    const group = await client.POST("/messages/send", { body: Samples.sendToGroups })
    expect(group.response.status).toBe(202)
    expect(group.data).toMatchObject({ status: "PENDING", type: 2 })

    const messages = await client.GET("/messages", { params: { query: { direction: "MT", Limit: "50" } } })
    expect(messages.data?.map((message) => message.status)).toEqual(["READY", "READY", "PENDING"])

    const bad = await client.GET("/messages", { params: { query: { Limit: "0" } } })
    expect(bad.error?.error).toMatchObject({ code: "INVALID_PARAMETER", status: 400 })

    const deleted = await client.DELETE("/contacts/{msisdn}", msisdn)
    expect(deleted.data).toEqual({ msisdn: Samples.msisdn, deleted: true })
    const gone = await client.GET("/contacts/{msisdn}", msisdn)
    expect(gone.error?.error).toMatchObject({ code: "CONTACT_NOT_FOUND", status: 404 })

    const health = await client.GET("/health")
    expect(health.data).toEqual({ status: "ready", store: "sqlite" })
  })
})
