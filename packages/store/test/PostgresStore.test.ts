/**
 * The PostgreSQL adapter without a server: URLs lose their password in every error, however odd its
 * characters, and an unreachable or unparsable URL is StoreUnavailable.
 */
import { Effect, Layer } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as PostgresStore from "../src/PostgresStore.ts"

describe("PostgresStore: redactUrl and unreachable servers (no server needed)", () => {
  const user = fc.string({ unit: fc.constantFrom("a", "b", "_", ".", "%", "@", "/"), maxLength: 6 })
  const password = fc.string({ unit: fc.constantFrom("p", "a", "@", ":", "/", "?", "#", "%", "&", "*", "é"), minLength: 1, maxLength: 10 })

  it("replaces exactly the password of any userinfo, however odd its characters", () => {
    fc.assert(fc.property(user, password, (u, p) => {
      const url = `postgres://${u}:${p}@db.example.org:5432/smsbook?sslmode=require`
      expect(PostgresStore.redactUrl(url)).toBe(`postgres://${u}:***@db.example.org:5432/smsbook?sslmode=require`)
    }))
  })

  it("masks a password query parameter and leaves URLs without a password as they are", () => {
    fc.assert(fc.property(fc.constantFrom("", "u", "user.name"), password.filter((p) => !/[&#]/.test(p)), (u, p) => {
      const at = u === "" ? "" : `${u}@`
      const plain = `postgres://${at}127.0.0.1:5432/db?sslmode=disable`
      expect(PostgresStore.redactUrl(plain)).toBe(plain)
      expect(PostgresStore.redactUrl(`${plain}&password=${p}&application_name=x`))
        .toBe(`${plain}&password=***&application_name=x`)
    }))
  })

  it("is idempotent", () => {
    fc.assert(fc.property(fc.string({ maxLength: 40 }), (url) => {
      const once = PostgresStore.redactUrl(url)
      expect(PostgresStore.redactUrl(once)).toBe(once)
    }))
  })

  it("an unreachable server gives StoreUnavailable naming the URL without its password", async () => {
    const url = "postgres://smsbook:s3cret-Pa55@127.0.0.1:1/smsbook?connect_timeout=3"
    const error = await Effect.runPromise(Effect.flip(Layer.build(PostgresStore.layer(url)).pipe(Effect.scoped)))
    expect(error._tag).toBe("StoreUnavailable")
    expect(error.url).toBe("postgres://smsbook:***@127.0.0.1:1/smsbook?connect_timeout=3")
    expect(JSON.stringify(error) + error.message).not.toContain("s3cret-Pa55")
  })

  it("an unparsable URL gives StoreUnavailable without its password", async () => {
    const url = "postgres://smsbook:s3cret/Pa55@[broken/smsbook"
    const error = await Effect.runPromise(Effect.flip(Layer.build(PostgresStore.layer(url)).pipe(Effect.scoped)))
    expect(error._tag).toBe("StoreUnavailable")
    expect(JSON.stringify(error) + error.message).not.toContain("s3cret")
  })
})
