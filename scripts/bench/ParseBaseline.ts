/**
 * Child script: csv-parse alone over the contacts file, streamed, with the options the import gives it
 * (packages/batch/src/internal/csv/records.ts), counting records. The reference the import is held to.
 * Usage: node scripts/bench/ParseBaseline.ts FILE — prints `{"rows":N,"seconds":S}` (N without the header).
 */
import { parse } from "csv-parse"
import * as fs from "node:fs"

/** The import's parser options for a comma-delimited file (trimmed, relaxed quotes and column counts, line info). */
export const importOptions = {
  delimiter: ",",
  info: true,
  relax_column_count: true,
  relax_quotes: true,
  skip_empty_lines: true,
  ltrim: true,
  rtrim: true,
  max_record_size: 1 << 20
} as const

/** Streams `path` through csv-parse and counts the records (the header included). */
export const count = async (path: string): Promise<number> => {
  let records = 0
  for await (const _ of fs.createReadStream(path).pipe(parse(importOptions))) records++
  return records
}

const [path] = process.argv.slice(2)
if (path === undefined) {
  console.error("usage: ParseBaseline.ts FILE")
  process.exit(2)
}
const started = performance.now()
const records = await count(path)
console.log(JSON.stringify({ rows: records - 1, seconds: (performance.now() - started) / 1000 }))
