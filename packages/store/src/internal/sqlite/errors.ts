/**
 * What a `node:sqlite` error says, read from SQLite's own result codes: its message, whether another connection
 * holds the lock, and which `StoreProblem` lies beneath the book.
 */
import type { StoreProblem } from "@smsbook/core"

/** The message of a thrown value: node:sqlite throws `Error`s carrying SQLite's own text. */
export const reasonOf = (error: unknown): string => error instanceof Error ? error.message : String(error)

/** SQLite's primary result code of a node:sqlite error (its extended code's low byte), if it carries one. */
const primaryCode = (error: unknown): number | undefined =>
  typeof error === "object" && error !== null && "errcode" in error && typeof error.errcode === "number"
    ? error.errcode & 0xff
    : undefined

/** Whether a node:sqlite error is SQLITE_BUSY (another connection holds the lock), extended codes included. */
export const isBusy = (error: unknown): boolean => primaryCode(error) === 5

/**
 * SQLite's result codes that say what is wrong beneath the book (sqlite3.h), as `StoreProblem`s. SQLITE_NOTADB is not
 * among them: a file that is no database at all is most often the wrong path (`--store contacts.csv`), which its
 * message says, not a damaged book.
 */
const problems: ReadonlyMap<number, StoreProblem> = new Map([
  [8, "read-only"], // SQLITE_READONLY
  [10, "disk-io"], // SQLITE_IOERR
  [11, "damaged"], // SQLITE_CORRUPT
  [13, "disk-full"] // SQLITE_FULL
])

/** What a node:sqlite error comes from, by SQLite's result code, as `StoreFailure` and `StoreUnavailable` carry it. */
export const problemOf = (error: unknown): { readonly problem?: StoreProblem } => {
  const problem = problems.get(primaryCode(error) ?? -1)
  return problem === undefined ? {} : { problem }
}
