/**
 * API keys in every store kind (memory, SQLite, PostgreSQL when SMSBOOK_TEST_POSTGRES_URL is set):
 * the secret is shown once and only its hash is kept; verify accepts exactly the live keys.
 */
import { DatabaseSync } from "node:sqlite"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PostgresSchema } from "@smsbook/testing"
import { Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import * as ApiKeyStore from "../src/ApiKeyStore.ts"
import * as Store from "../src/Store.ts"

const postgresUrl = process.env["SMSBOOK_TEST_POSTGRES_URL"] ?? ""
if (postgresUrl === "") console.warn("PostgreSQL key tests skipped: set SMSBOOK_TEST_POSTGRES_URL (scripts/postgres.sh start)")

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

const freshUrl = async (kind: string): Promise<string> => {
  if (kind === "memory") return "memory:"
  if (kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "smsbook-keys-"))
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }))
    return join(dir, "book.db")
  }
  const throwaway = await PostgresSchema.make(postgresUrl, "keys")
  cleanups.push(throwaway.drop)
  return throwaway.url
}

const kinds = postgresUrl === "" ? ["memory", "sqlite"] : ["memory", "sqlite", "postgres"]

describe.each(kinds)("ApiKeyStore over %s", (kind) => {
  const withKeys = async <A>(url: string, f: (keys: ApiKeyStore.ApiKeyStore["Service"]) => Effect.Effect<A, unknown>) => {
    const runtime = ManagedRuntime.make(Store.layer(url))
    try {
      return await runtime.runPromise(Effect.flatMap(Effect.service(ApiKeyStore.ApiKeyStore), f))
    } finally {
      await runtime.dispose()
    }
  }

  it("creates, lists, verifies and revokes keys; a secret verifies only its own live key", async () => {
    const url = await freshUrl(kind)
    await withKeys(url, (keys) =>
      Effect.gen(function*() {
        const first = yield* keys.create("  deploy bot ")
        const second = yield* keys.create("reports")
        const secret = Redacted.value(first.secret)
        expect(secret).toMatch(/^smsbook_[A-Za-z0-9_-]{43}$/)
        expect(first.key).toMatchObject({ name: "deploy bot", id: expect.stringMatching(/^[0-9a-f]{16}$/) })
        expect(first.key).not.toHaveProperty("revoked_at")
        expect((yield* keys.list).map((key) => key.name)).toEqual(["deploy bot", "reports"])
        expect(JSON.stringify(yield* keys.list)).not.toContain(secret)
        expect(yield* keys.verify(secret)).toEqual(Option.some(first.key))
        expect(yield* keys.verify(Redacted.value(second.secret))).toEqual(Option.some(second.key))
        for (const wrong of ["", secret.slice(0, -1), secret + "x", secret.toUpperCase(), ApiKeyStore.hash(secret)]) {
          expect(Option.isNone(yield* keys.verify(wrong)), wrong).toBe(true)
        }
        const revoked = yield* keys.revoke(first.key.id)
        expect(revoked).toEqual(Option.some({ ...first.key, revoked_at: expect.any(String) }))
        expect(Option.isNone(yield* keys.verify(secret))).toBe(true)
        expect(yield* keys.revoke(first.key.id)).toEqual(revoked)
        expect(Option.isNone(yield* keys.revoke("0000000000000000"))).toBe(true)
        expect(Option.isSome(yield* keys.verify(Redacted.value(second.secret)))).toBe(true)
        expect(yield* Effect.flip(keys.create("   "))).toMatchObject({ _tag: "InvalidField", field: "name" })
      }))
    if (kind === "sqlite") {
      // only the hash is on disk, and keys outlive the connection
      const db = new DatabaseSync(url)
      const rows = db.prepare("SELECT hash FROM api_keys").all()
      db.close()
      expect(rows).toHaveLength(2)
      for (const row of rows) expect(row["hash"]).toMatch(/^[0-9a-f]{64}$/)
    }
    if (kind !== "memory") expect((await withKeys(url, (keys) => keys.list)).map((key) => key.name)).toEqual(["deploy bot", "reports"])
  })

  it("verify accepts a created secret and refuses any other text (property)", async () => {
    const url = await freshUrl(kind)
    await withKeys(url, (keys) =>
      Effect.gen(function*() {
        const created = yield* keys.create("prop")
        const secret = Redacted.value(created.secret)
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(fc.string(), async (other) => {
              const found = await Effect.runPromise(keys.verify(other))
              expect(Option.isSome(found)).toBe(other === secret)
            }),
            { numRuns: kind === "memory" ? 200 : 40 }
          )
        )
      }))
  })

  it.skipIf(kind === "memory")("a revocation by another process shows within verifiedFor; one through the same store at once", async () => {
    const url = await freshUrl(kind)
    // The server's store on a test clock; `cli` stands for `smsbook keys` in another process.
    const server = ManagedRuntime.make(Layer.merge(Store.layer(url), TestClock.layer()))
    const cli = ManagedRuntime.make(Store.layer(url))
    const keys = Effect.service(ApiKeyStore.ApiKeyStore)
    try {
      const first = await cli.runPromise(Effect.flatMap(keys, (k) => k.create("first")))
      const second = await cli.runPromise(Effect.flatMap(keys, (k) => k.create("second")))
      const [one, two] = [Redacted.value(first.secret), Redacted.value(second.secret)]
      const verify = (secret: string) => server.runPromise(Effect.flatMap(keys, (k) => k.verify(secret)))
      // a key created elsewhere verifies at once (only live keys are remembered)
      expect(await verify(one)).toEqual(Option.some(first.key))
      expect(Option.isSome(await verify(two))).toBe(true)
      await cli.runPromise(Effect.flatMap(keys, (k) => k.revoke(first.key.id)))
      await server.runPromise(TestClock.adjust(ApiKeyStore.verifiedFor - 1))
      expect(Option.isSome(await verify(one))).toBe(true)
      await server.runPromise(TestClock.adjust(1))
      expect(Option.isNone(await verify(one))).toBe(true)
      // revoked through the server's own store: refused on the next request, remembered or not
      await server.runPromise(Effect.flatMap(keys, (k) => k.revoke(second.key.id)))
      expect(Option.isNone(await verify(two))).toBe(true)
    } finally {
      await server.dispose()
      await cli.dispose()
    }
  })

  it.skipIf(kind === "memory")("a clock that went back asks the store again: a revocation is never trusted away for longer", async () => {
    const url = await freshUrl(kind)
    const server = ManagedRuntime.make(Layer.merge(Store.layer(url), TestClock.layer()))
    const cli = ManagedRuntime.make(Store.layer(url))
    const keys = Effect.service(ApiKeyStore.ApiKeyStore)
    try {
      const created = await cli.runPromise(Effect.flatMap(keys, (k) => k.create("stepped")))
      const secret = Redacted.value(created.secret)
      const verify = () => server.runPromise(Effect.flatMap(keys, (k) => k.verify(secret)))
      await server.runPromise(TestClock.setTime(10 * ApiKeyStore.verifiedFor))
      expect(Option.isSome(await verify())).toBe(true)
      await cli.runPromise(Effect.flatMap(keys, (k) => k.revoke(created.key.id)))
      // The wall clock stepped back (NTP): what was remembered "in the future" is not trusted.
      await server.runPromise(TestClock.setTime(5 * ApiKeyStore.verifiedFor))
      expect(Option.isNone(await verify())).toBe(true)
    } finally {
      await server.dispose()
      await cli.dispose()
    }
  })
})
