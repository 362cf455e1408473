/**
 * A data export read from the store in keyset pages (each after the last item of the one before) and written as
 * spreadsheet-safe CSV, one JSON array or JSON Lines, to a file that appears only when complete (or to stdout, `-`).
 * Memory stays flat however large the book, and items another process adds or deletes before the page being read
 * shift no later page.
 */
import { stringify } from "csv-stringify/sync"
import { Effect } from "effect"
import * as spreadsheet from "./csv/spreadsheet.ts"
import * as OutputPath from "./outputPath.ts"

export type Format = "csv" | "json" | "jsonl"

export interface Options {
  readonly format: Format
  /** CSV only: a UTF-8 byte order mark and CRLF line ends, so Excel reads accents and emoji right. */
  readonly excel: boolean
  /** Items read per store round trip. */
  readonly pageSize: number
}

export interface Source<A, E, R> {
  /** At most `limit` items in key order, those after `after` (the last item of the page before) when it is given. */
  readonly page: (after: A | undefined, limit: number) => Effect.Effect<ReadonlyArray<A>, E, R>
  /** The items of a page that are written (all of them when absent): the next page still starts after its last. */
  readonly keep?: (item: A) => boolean
  readonly columns: ReadonlyArray<string>
  /** An item as a CSV row, by column. */
  readonly row: (item: A) => Readonly<Record<string, unknown>>
  /** An item as JSON. */
  readonly json: (item: A) => unknown
}

const newline = "\n"

/** Writes every item of `source` to `out`; answers how many were written. */
export const write = <A, E, R>(out: string, options: Options, source: Source<A, E, R>) =>
  Effect.scoped(Effect.gen(function*() {
    const { excel, format } = options
    const csv = (items: ReadonlyArray<A>, header: boolean) =>
      stringify(items.map(source.row), { ...spreadsheet.csvOptions, record_delimiter: excel ? "windows" : "unix", header, columns: [...source.columns] })
    const sink = yield* OutputPath.openExport(out)
    if (excel && format === "csv") yield* sink.write("\uFEFF")
    if (format === "json") yield* sink.write("[")
    if (format === "csv") yield* sink.write(csv([], true))
    let written = 0
    for (let after: A | undefined;;) {
      const page = yield* source.page(after, options.pageSize)
      const chosen = source.keep === undefined ? page : page.filter(source.keep)
      if (chosen.length > 0) {
        yield* sink.write(
          format === "csv"
            ? csv(chosen, false)
            : format === "jsonl"
            ? chosen.map((item) => JSON.stringify(source.json(item)) + newline).join("")
            : chosen.map((item, index) => `${written === 0 && index === 0 ? newline : `,${newline}`}  ${JSON.stringify(source.json(item))}`).join("")
        )
        written += chosen.length
      }
      const last = page.at(-1)
      if (page.length < options.pageSize || last === undefined) break
      after = last
    }
    if (format === "json") yield* sink.write(written === 0 ? `]${newline}` : `${newline}]${newline}`)
    yield* sink.close
    return written
  }))
