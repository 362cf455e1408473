/**
 * Whether an import stored exactly the numbers the generator wrote: every valid row kept as its own number (recall)
 * and no number that nobody wrote (precision). A row read as the wrong number counts against both.
 */
import { DatabaseSync } from "node:sqlite"

export interface Agreement {
  readonly intended: number
  /** Intended numbers the book holds. */
  readonly kept: number
  /** Numbers the book holds that no row was written as. */
  readonly unwritten: number
  /** A few of those, to look at. */
  readonly examples: ReadonlyArray<string>
}

/** Compares the contacts of the SQLite book at `db` with `intended` (MSISDNs as numbers, as `ContactsFile` keeps them). */
export const check = (db: string, intended: Float64Array): Agreement => {
  const book = new DatabaseSync(db, { readOnly: true })
  let stored: Float64Array
  try {
    stored = Float64Array.from(book.prepare("SELECT msisdn FROM contacts").iterate(), (row) => Number(row["msisdn"]))
  } finally {
    book.close()
  }
  const wanted = intended.slice().sort()
  stored.sort()
  let kept = 0
  let unwritten = 0
  const examples: Array<string> = []
  for (let i = 0, j = 0; j < stored.length;) {
    const a = wanted[i]
    const b = stored[j] ?? 0
    if (a !== undefined && a < b) i++
    else if (a === b) {
      kept++
      i++
      j++
    } else {
      unwritten++
      if (examples.length < 5) examples.push(String(b))
      j++
    }
  }
  return { intended: intended.length, kept, unwritten, examples }
}
