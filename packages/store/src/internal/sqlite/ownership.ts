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
  // One statement, so one snapshot: read one by one, another smsbook process's migration committing in between showed
  // a state that never was (its tables or its user_version without its application_id), and a new book was refused.
  const state = db.prepare(`SELECT
      (SELECT application_id FROM pragma_application_id) AS owner,
      (SELECT user_version FROM pragma_user_version) AS version,
      (SELECT json_group_array(name) FROM (
        SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' LIMIT 3)) AS tables`).get()
  const owner = Number(state?.["owner"] ?? 0)
  if (owner === applicationId) return undefined
  if (owner !== 0) return `not an smsbook database (application_id ${owner})`
  const version = Number(state?.["version"] ?? 0)
  if (version !== 0) return `not an smsbook database (user_version ${version} without smsbook's application_id)`
  const tables: ReadonlyArray<unknown> = JSON.parse(String(state?.["tables"] ?? "[]"))
  return tables.length > 0 ? `not an smsbook database (a SQLite file of another program: tables ${tables.join(", ")})` : undefined
}
