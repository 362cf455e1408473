/**
 * PostgreSQL books from before the suppression list upgrade (SMSBOOK_TEST_POSTGRES_URL): migration
 * 2 adds the list and fills it with the numbers of the CANCELLED contacts.
 */
import { PgClient } from "@effect/sql-pg"
import { Contact, ContactBook } from "@smsbook/core"
import { Laws } from "@smsbook/testing"
import { Effect, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import * as PostgresStore from "../src/PostgresStore.ts"
import { postgresUrl } from "./laws/Books.ts"

const on = Laws.on

const contact = (msisdn: string, status: Contact.Status): Contact.Contact => ({
  msisdn,
  phone_number: msisdn.slice(2),
  country_code: "44",
  first_name: "A",
  last_name: "B",
  full_name: "A B",
  added_from: "API",
  status,
  tags: [],
  profile_uid: "0".repeat(32),
  monitoring: false
})

if (postgresUrl === undefined) {
  describe("PostgreSQL upgrade to the suppression list", () => it.skip("set SMSBOOK_TEST_POSTGRES_URL to run", () => {}))
} else {
  describe("PostgreSQL upgrade to the suppression list", () => {
    it("a book at migration 1 gets its CANCELLED numbers suppressed, and a deleted opt-out stays out", async () => {
      const base = postgresUrl ?? ""
      const admin = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(base) }))
      const schema = `smsbook_upgrade_${Date.now().toString(36)}`
      const url = new URL(base)
      url.searchParams.set("options", `-c search_path=${schema}`)
      try {
        await admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE SCHEMA ${sql(schema)}`))
        // A book as migration 1 left it: contacts, no suppression list (nor anything later).
        await Effect.runPromise(Effect.scoped(Effect.flatMap(PostgresStore.make(url.href), (book) =>
          book.contacts.write({ insert: [contact("447400000001", "CANCELLED"), contact("447400000002", "SUBSCRIBED")], update: [] }))))
        await admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
          Effect.andThen(
            Effect.andThen(
              sql`DROP TABLE ${sql(schema)}.suppressions, ${sql(schema)}.api_keys`,
              // Migrations 4 and 5's part states (their indexes go with the columns).
              sql`ALTER TABLE ${sql(schema)}.outbox DROP COLUMN state, DROP COLUMN smsc_id, DROP COLUMN owner, DROP COLUMN lease_until, DROP COLUMN written`
            ),
            sql`DELETE FROM ${sql(schema)}.smsbook_migrations WHERE migration_id >= 2`
          )))
        await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
          const book = yield* PostgresStore.make(url.href)
          const suppressed = yield* book.contacts.suppressed(["447400000001", "447400000002"])
          expect([...suppressed]).toEqual(["447400000001"])
          yield* on(book)(ContactBook.deleteContact("447400000001"))
          expect(yield* on(book)(ContactBook.createContact("447400000001", {}))).toMatchObject({ status: "CANCELLED" })
        })))
      } finally {
        await admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DROP SCHEMA IF EXISTS ${sql(schema)} CASCADE`))
        await admin.dispose()
      }
    })
  })
}
