/**
 * The typed `HttpApiClient` and the Promise client against a real server: every endpoint, refusals
 * decoded as error bodies; the README's two examples are these test files, and they run.
 */
import { readFileSync } from "node:fs"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import * as Client from "../src/Client.ts"
import * as EffectExample from "./examples/effectClient.ts"
import * as PromiseExample from "./examples/promiseClient.ts"
import { serving } from "./running.ts"
import * as Samples from "./samples.ts"

describe("clients of a real server", () => {
  const server = serving()

  it("the typed client calls every endpoint and decodes refusals by status", async () => {
    const program = Effect.gen(function*() {
      const client = yield* Client.SmsbookClient
      const params = { msisdn: Samples.msisdn }
      expect(yield* client.health()).toEqual({ status: "ready", store: "sqlite" })
      const created = yield* client.contacts.create({ params, payload: { first_name: "Ann", last_name: "Lee" } })
      expect(created).toMatchObject({ msisdn: Samples.msisdn, status: "SUBSCRIBED", added_from: "API" })
      const exists = yield* Effect.flip(client.contacts.create({ params, payload: {} }))
      expect(exists).toMatchObject({ error: { code: "CONTACT_EXISTS", number: 1010, status: 409 } })
      expect(yield* client.contacts.get({ params })).toEqual(created)
      const edited = yield* client.contacts.edit({ params, payload: { tags: ["news"], monitoring: true } })
      expect(edited).toMatchObject({ tags: ["news"], monitoring: true })
      expect(yield* client.contacts.list({ query: { shortResults: "1" } })).toEqual([
        { msisdn: Samples.msisdn, first_name: "Ann", last_name: "Lee", status: "SUBSCRIBED" }
      ])
      const sent = yield* client.messages.sendToContact({ payload: { msisdn: Samples.msisdn, message: "Hello", id: "typed-1" } })
      expect(sent).toMatchObject({ status: "READY", id: "typed-1", type: 1 })
      const duplicate = yield* Effect.flip(client.messages.sendToContact({ payload: { msisdn: Samples.msisdn, message: "Hello", id: "typed-1" } }))
      expect(duplicate).toMatchObject({ error: { code: "DUPLICATE_SEND", status: 409, details: { id: "typed-1", message_id: sent.message_id } } })
      const group = yield* client.messages.send({ payload: { tags: ["news"], message: "All" } })
      expect(group).toMatchObject({ status: "PENDING", type: 2 })
      expect((yield* client.messages.list({ query: { Limit: "10" } })).map((message) => message.message)).toEqual(["Hello", "All"])
      const missingTags = yield* Effect.flip(client.messages.send({ payload: { message: "All" } }))
      expect(missingTags).toMatchObject({ error: { code: "MISSING_TAGS", status: 400 } })
      expect(yield* client.contacts.delete({ params })).toEqual({ msisdn: Samples.msisdn, deleted: true })
      const gone = yield* Effect.flip(client.contacts.get({ params }))
      expect(gone).toMatchObject({ error: { code: "CONTACT_NOT_FOUND", status: 404 } })
    })
    await Effect.runPromise(program.pipe(Effect.provide(Client.layer({ baseUrl: server.url, apiKey: server.key }))))
    const unauthorized = await Effect.runPromise(
      Effect.flatMap(Effect.service(Client.SmsbookClient), (client) => Effect.flip(client.contacts.list({ query: {} }))).pipe(
        Effect.provide(Client.layer({ baseUrl: server.url, apiKey: "smsbook_nope" }))
      )
    )
    expect(unauthorized).toMatchObject({ error: { code: "UNAUTHORIZED", number: 3001, status: 401 } })
  })

  it("the Promise client calls every endpoint and throws SmsbookHttpError on refusals", async () => {
    const client = Client.promise({ baseUrl: server.url, apiKey: server.key })
    try {
      const created = await client.createContact(Samples.other, { first_name: "Bo" })
      expect(created).toMatchObject({ msisdn: Samples.other, full_name: "Bo" })
      expect(await client.getContact(Samples.other)).toEqual(created)
      expect(await client.editContact(Samples.other, { last_name: "Ek" })).toMatchObject({ full_name: "Bo Ek" })
      expect(await client.listContacts({ Query: "ek" })).toHaveLength(1)
      expect(await client.sendToContact({ msisdn: Samples.other, message: "Hej" })).toMatchObject({ status: "READY" })
      expect(await client.send({ tags: ["x"], message: "Hej alla", id: "p-1" })).toMatchObject({ status: "PENDING" })
      expect((await client.listMessages({ misdn: Samples.other })).map((message) => message.message)).toEqual(["Hej"])
      const refused = await client.send({ tags: ["x"], message: "Hej alla", id: "p-1" }).catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(Client.SmsbookHttpError)
      expect(refused).toMatchObject({ code: "DUPLICATE_SEND", number: 1009, status: 409 })
      expect(await client.deleteContact(Samples.other)).toEqual({ msisdn: Samples.other, deleted: true })
      await expect(client.getContact(Samples.other)).rejects.toMatchObject({ code: "CONTACT_NOT_FOUND", status: 404 })
    } finally {
      await client.close()
    }
  })

  it("runs the README's examples, which are these files word for word", async () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8")
    for (const file of ["effectClient.ts", "promiseClient.ts"]) {
      const source = readFileSync(new URL(`./examples/${file}`, import.meta.url), "utf8")
      expect(readme, `README shows examples/${file}`).toContain("```ts\n" + source + "```")
    }
    expect(await Effect.runPromise(EffectExample.remind(server.url, server.key))).toBe("refused: CONTACT_NOT_FOUND")
    expect(await PromiseExample.remind(server.url, server.key)).toBe("refused: CONTACT_NOT_FOUND (404)")
    const created = await fetch(`${server.url}/contacts/${Samples.msisdn}`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}` },
      body: JSON.stringify({ first_name: "Ann" })
    })
    expect(created.status).toBe(201)
    expect(await Effect.runPromise(EffectExample.remind(server.url, server.key))).toMatch(/^[0-9a-f]{28}$/)
    expect(await PromiseExample.remind(server.url, server.key)).toMatch(/^[0-9a-f]{28}$/)
  })
})
