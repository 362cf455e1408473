/**
 * The default carrier of the SQLite store: every handed-over part lands in the `outbox` table,
 * refused by nobody, and the outbox reads back in hand-over order for tests and checks.
 */
import { Effect } from "effect"
import { Carrier } from "@smsbook/core"
import type { Database } from "./connection.ts"
import * as Rows from "./rows.ts"

const sql = {
  insertPart: `INSERT INTO outbox (${Rows.partColumns.join(", ")}) VALUES (${Rows.placeholders(Rows.partColumns.length)})`,
  parts: `SELECT ${Rows.partColumns.join(", ")} FROM outbox ORDER BY seq`
} as const

/** The carrier port: one transaction per hand-over, 0 failures. */
export const make = (db: Database): Carrier.Carrier["Service"] =>
  Carrier.Carrier.of({
    handOver: (parts) =>
      db.write("carrier.handOver", () => {
        const insertPart = db.statement(sql.insertPart)
        for (const part of parts) insertPart.run(...Rows.partParams(part))
        return 0
      })
  })

/**
 * The outbox as the memory store's `Outbox` view, so the same contract tests read either store.
 * That view cannot fail, so a failing read here is a defect.
 */
export const outbox = (db: Database): Carrier.Outbox["Service"] =>
  Carrier.Outbox.of({
    parts: Effect.orDie(db.read("outbox.parts", () => db.statement(sql.parts).all().map(Rows.partFromRow)))
  })
