/** The suppression-list law on PostgreSQL (SMSBOOK_TEST_POSTGRES_URL, see scripts/postgres.sh). */
import { describe, it } from "vitest"
import { Laws } from "@smsbook/testing"
import * as Books from "./laws/Books.ts"

if (Books.postgresUrl === undefined) {
  describe("suppression list: postgres", () => it.skip("set SMSBOOK_TEST_POSTGRES_URL to run", () => {}))
} else {
  Laws.Suppression.run(Books.postgres(Books.postgresUrl), 20)
}
