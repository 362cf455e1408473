/**
 * Spreadsheet safety of CSV cells: a cell a spreadsheet would read as a formula is neutralised.
 */

/** A formula start (`=`, `+`, `-`, `@`, tab, CR), after any number of `'`: what a neutralised cell looks like too. */
const formulaAfterQuotes = /^'*[=+\-@\t\r]/

/**
 * Prefixes `'` to a cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return (OWASP's CSV-injection
 * rule), so a spreadsheet shows it as text and never evaluates it — and to a cell that already looks neutralised
 * (`'=x`), so that reading it back gives `'=x`, not `=x`. Other text is unchanged.
 */
export const neutralize = (cell: string): string => formulaAfterQuotes.test(cell) ? `'${cell}` : cell

/**
 * A cell copied as it was read from an input file (a rejects file): a `'=…` there was already neutralised by whoever
 * wrote it, and the import reads it so; only a real formula start gets a `'`, so the copy reads as the original.
 */
export const neutralizeRaw = (cell: string): string => /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell

/** The inverse of {@link neutralize}: a cell written `'=…` (or `''=…`, `'+`, `'-`, `'@`, tab, CR) loses one `'`. */
export const restore = (cell: string): string =>
  cell.charCodeAt(0) === 39 && /^'+[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell

/** csv-stringify casts: strings neutralised, booleans as `true`/`false` (not `1`/empty), numbers as plain text. */
export const casts = {
  string: neutralize,
  boolean: (value: boolean) => value ? "true" : "false",
  number: (value: number) => String(value)
}

/**
 * csv-stringify options every file smsbook writes shares: the casts above, `\n` line ends, and any CR or LF inside a
 * cell quoted (csv-stringify quotes only its record delimiter by default: a spreadsheet ends a line at a bare CR, and
 * with `--excel`'s CRLF at a bare LF too).
 */
export const csvOptions = {
  cast: casts,
  record_delimiter: "unix",
  quoted_match: /[\r\n]/
} as const

/** {@link csvOptions} for cells copied from an input file, as {@link neutralizeRaw} writes them. */
export const rawCsvOptions = { ...csvOptions, cast: { ...casts, string: neutralizeRaw } } as const
