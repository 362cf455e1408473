/**
 * The default carrier of the PostgreSQL store: every handed-over part lands in the `outbox` table,
 * refused by nobody, and the outbox reads back in hand-over order for tests and checks.
 */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { Carrier } from "@smsbook/core"
import { attempt } from "./connection.ts"
import { column, decodeParts } from "./rows.ts"

/** The carrier port: one set-based insert per hand-over, 0 failures. */
export const make = (sql: SqlClient.SqlClient): Carrier.Carrier["Service"] =>
  Carrier.Carrier.of({
    handOver: (parts) => {
      if (parts.length === 0) return Effect.succeed(0)
      return sql`INSERT INTO outbox (message_id, msisdn, short_code, part, parts, text)
        SELECT * FROM unnest(${column(parts, "message_id")}::text[], ${column(parts, "msisdn")}::text[],
          ${column(parts, "short_code")}::text[], ${column(parts, "part")}::integer[], ${column(parts, "parts")}::integer[],
          ${column(parts, "text")}::text[])`.pipe(
        Effect.as(0),
        attempt("Carrier.handOver")
      )
    }
  })

/**
 * The outbox as the memory store's `Outbox` view, so the same contract tests read either store.
 * That view cannot fail, so a failing read here is a defect.
 */
export const outbox = (sql: SqlClient.SqlClient): Carrier.Outbox["Service"] =>
  Carrier.Outbox.of({
    parts: sql`SELECT message_id, msisdn, short_code, part, parts, text FROM outbox ORDER BY seq`.pipe(
      Effect.flatMap(decodeParts("Outbox.parts")),
      attempt("Outbox.parts"),
      Effect.orDie
    )
  })
