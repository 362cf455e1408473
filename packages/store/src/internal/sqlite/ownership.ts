/**
 * Whether a SQLite file is an smsbook book (or a new, empty file that may become one) or another program's, decided
 * by reading alone: it is checked before any pragma or statement that writes, so a refused file is left as it was.
 */
import type { DatabaseSync } from "node:sqlite"

/** `PRAGMA application_id` of smsbook files ("SMSB"): a SQLite file of another program is refused, not altered. */
export const applicationId = 0x534d5342

/** The value of an integer pragma of the open file (0 when SQLite gives none). */
export const pragmaNumber = (db: DatabaseSync, pragma: "user_version" | "application_id"): number => {
  const value = db.prepare(`PRAGMA ${pragma}`).get()?.[pragma]
  return typeof value === "number" ? value : 0
}

/**
 * Why the open file is not smsbook's, or `undefined` when it is (our `application_id`) or is new (no id, no
 * `user_version`, no table). Another program's file has another id, a `user_version` without our id, or tables
 * of its own. Reads only; throws node:sqlite's error when the file is not a database.
 */
export const refusal = (db: DatabaseSync): string | undefined => {
  const owner = pragmaNumber(db, "application_id")
  if (owner === applicationId) return undefined
  if (owner !== 0) return `not an smsbook database (application_id ${owner})`
  const version = pragmaNumber(db, "user_version")
  if (version !== 0) return `not an smsbook database (user_version ${version} without smsbook's application_id)`
  const tables = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' LIMIT 3")
    .all()
    .map((row) => String(row["name"]))
  return tables.length > 0 ? `not an smsbook database (a SQLite file of another program: tables ${tables.join(", ")})` : undefined
}
