/** The suppression-list law on PostgreSQL (SMSBOOK_TEST_POSTGRES_URL, see scripts/postgres.sh). */
import { describe, it } from "vitest"
import * as Books from "./laws/Books.ts"
import * as Suppression from "./laws/Suppression.ts"

if (Books.postgresUrl === undefined) {
  describe("suppression list: postgres", () => it.skip("set SMSBOOK_TEST_POSTGRES_URL to run", () => {}))
} else {
  Suppression.run(Books.postgres(Books.postgresUrl), 20)
}
