/**
 * The cells of a contact file's row as the file meant them (a spreadsheet's safety quote off, control characters
 * replaced, trimmed; a country cell's ways of saying no value), and facts of a file's columns found once per file.
 */
import * as Country from "@smsbook/core/Country"
import type * as Columns from "./csv/columns.ts"
import * as CleanText from "./cleanText.ts"
import * as spreadsheet from "./csv/spreadsheet.ts"

/**
 * The cell as the file meant it: a spreadsheet-safety quote taken off, then trimmed (candidates carry trimmed
 * names). The quote comes off before trimming, so a cell reads the same as its neutralised form in a rejects file.
 */
export const cell = (fields: ReadonlyArray<string>, index: number | undefined): string => {
  if (index === undefined) return ""
  const text = fields[index] ?? ""
  return CleanText.replaceControls(spreadsheet.restore(text)).trim()
}

/** A country cell: blank where it says there is no value (`N/A`, `#N/A`), so the next country column or the default reads. */
export const countryCell = (fields: ReadonlyArray<string>, at: number | undefined): string => {
  const text = cell(fields, at)
  return Country.isNotAvailable(text) ? "" : text
}

/** The first of the cells at `columns` that is not blank, or "" (a field's fallback columns, in order), read by `read`. */
export const firstCell = (fields: ReadonlyArray<string>, columns: ReadonlyArray<number>, read = cell): string => {
  for (const at of columns) {
    const text = read(fields, at)
    if (text !== "") return text
  }
  return ""
}

/** A fact of a file's columns, found once per file: every row of a file is read with the same `Columns`. */
export const perFile = <A>(fact: (columns: Columns.Columns) => A) => {
  const known = new WeakMap<Columns.Columns, A>()
  return (columns: Columns.Columns): A => {
    let answer = known.get(columns)
    if (answer === undefined) {
      answer = fact(columns)
      known.set(columns, answer)
    }
    return answer
  }
}
