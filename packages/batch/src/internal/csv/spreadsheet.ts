/**
 * Spreadsheet safety of CSV cells: a cell a spreadsheet would read as a formula is neutralised.
 */

const formulaStart = /^[=+\-@\t\r]/

/**
 * Prefixes `'` to a cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return (OWASP's
 * CSV-injection rule), so a spreadsheet shows it as text and never evaluates it. Other text is unchanged.
 */
export const neutralize = (cell: string): string => formulaStart.test(cell) ? `'${cell}` : cell

const neutralised = /^'[=+\-@\t\r]/

/** The inverse of {@link neutralize}: a cell written `'=…` (or `'+`, `'-`, `'@`, tab, CR) reads as `=…` again. */
export const restore = (cell: string): string => neutralised.test(cell) ? cell.slice(1) : cell

/** csv-stringify casts: strings neutralised, booleans as `true`/`false` (not `1`/empty), numbers as plain text. */
export const casts = {
  string: neutralize,
  boolean: (value: boolean) => value ? "true" : "false",
  number: (value: number) => String(value)
}

/**
 * csv-stringify options every file smsbook writes shares: the casts above, `\n` line ends, and a
 * bare carriage return quoted too (csv-stringify quotes only `\n` by default; spreadsheets end a
 * line at a CR).
 */
export const csvOptions = {
  cast: casts,
  record_delimiter: "unix",
  quoted_match: /\r/
} as const
