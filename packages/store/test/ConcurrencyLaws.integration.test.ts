/** The reliability laws over two real connection pools to one PostgreSQL schema (SMSBOOK_TEST_POSTGRES_URL). */
import { describe, it } from "vitest"
import { Laws } from "@smsbook/testing"
import * as Books from "./laws/Books.ts"

if (Books.postgresUrl === undefined) {
  describe("concurrency laws: postgres", () => it.skip("set SMSBOOK_TEST_POSTGRES_URL to run", () => {}))
} else {
  Laws.OptOutRace.run(Books.postgres(Books.postgresUrl), 30)
  Laws.EditRace.run(Books.postgres(Books.postgresUrl), 20)
  Laws.TagRace.run(Books.postgres(Books.postgresUrl), 15)
  Laws.SuppressionRace.run(Books.postgres(Books.postgresUrl), 20)
  Laws.InboundRace.run(Books.postgres(Books.postgresUrl), 15)
  Laws.ImportOverlap.run(Books.postgres(Books.postgresUrl), 15)
}
