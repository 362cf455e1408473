/** The reliability laws over two real connection pools to one PostgreSQL schema (SMSBOOK_TEST_POSTGRES_URL). */
import { describe, it } from "vitest"
import * as Books from "./laws/Books.ts"
import * as ImportOverlap from "./laws/ImportOverlap.ts"
import * as InboundRace from "./laws/InboundRace.ts"
import * as OptOutRace from "./laws/OptOutRace.ts"

if (Books.postgresUrl === undefined) {
  describe("concurrency laws: postgres", () => it.skip("set SMSBOOK_TEST_POSTGRES_URL to run", () => {}))
} else {
  OptOutRace.run(Books.postgres(Books.postgresUrl), 30)
  InboundRace.run(Books.postgres(Books.postgresUrl), 15)
  ImportOverlap.run(Books.postgres(Books.postgresUrl), 15)
}
