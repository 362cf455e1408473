/**
 * The records of a contact file, parsed by csv-parse in batches, each with the physical line it starts on
 * (counting a `sep=` line and the header, right across quoted fields that span lines).
 */
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import { CsvError, parse } from "csv-parse"
import * as Data from "effect/Data"
import * as Dialect from "./dialect.ts"

/** One record: its fields as parsed and the physical line (1-based) where it starts. */
export interface Row {
  readonly fields: ReadonlyArray<string>
  readonly line: number
}

/** A record of the file that breaks CSV so that nothing after it can be read (an unclosed quote…). */
export class Malformed extends Data.TaggedError("Malformed")<{
  readonly code: string
  /** The first line of the file that could not be read. */
  readonly line: number
  readonly reason: string
}> {}

export interface Reader {
  /** The next records, in order; empty at the end. Rejects with a {@link Malformed} or the source's error. */
  readonly next: () => Promise<ReadonlyArray<Row>>
  readonly delimiter: Dialect.Delimiter
  readonly encoding: () => Dialect.Encoding
  /** Stops reading and releases the source. */
  readonly close: () => void
}

export interface Options extends Dialect.Options {
  /** Records per batch (the last one may be shorter, one may be a little longer). */
  readonly batchSize: number
}

/** Longest record (characters) before the file is taken as broken: bounds memory when a quote is never closed. */
const maxRecordSize = 1 << 20

/** Counts the line breaks inside a record's fields as a text editor does, and csv-parse's over-count of them. */
const breaksIn = (fields: ReadonlyArray<string>): { readonly breaks: number; readonly overcount: number } => {
  let breaks = 0
  let overcount = 0
  for (const field of fields) {
    if (field.indexOf("\n") === -1 && field.indexOf("\r") === -1) continue
    for (let i = 0; i < field.length; i++) {
      const c = field.charCodeAt(i)
      if (c === 10) breaks++
      else if (c === 13) {
        if (field.charCodeAt(i + 1) === 10) overcount++
        else breaks++
      }
    }
  }
  return { breaks, overcount }
}

/** csv-parse's messages count lines its own way: the structural errors are said here without line numbers. */
const reasons: { readonly [code: string]: string } = {
  CSV_QUOTE_NOT_CLOSED: "a quoted cell that starts here or further on is never closed",
  CSV_MAX_RECORD_SIZE: `a record longer than ${maxRecordSize} characters starts here (a quote never closed?)`,
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: "a quoted cell is followed by more text before the delimiter (a shape such as \"Ann\"x: quote the whole cell, doubling its inner quotes)",
  CSV_INVALID_CLOSING_QUOTE: "a quoted cell is followed by more text before the delimiter (a shape such as \"Ann\"x: quote the whole cell, doubling its inner quotes)"
}

interface Parsed {
  readonly record: Array<string>
  readonly info: { readonly lines: number }
}

/**
 * Opens a reader over the bytes of a contact file. csv-parse counts a CR LF inside a quoted field as two lines,
 * so its `info.lines` drifts by one per such pair; the reader corrects that and reports where each record starts.
 */
export const open = async (source: AsyncIterable<Uint8Array>, options: Options): Promise<Reader> => {
  const opened = await Dialect.open(source, options).catch((error: unknown) => {
    throw error instanceof Dialect.Undecodable ? new Malformed({ code: "UNDECODABLE", line: 1, reason: error.reason }) : error
  })
  const trim = opened.delimiter !== "\t"
  const parser = parse({
    delimiter: opened.delimiter,
    info: true,
    // CR LF, LF and CR all end a record, mixed in one file (csv-parse otherwise keeps the first one it sees).
    record_delimiter: ["\r\n", "\n", "\r"],
    relax_column_count: true,
    relax_quotes: true,
    // Empty lines come out as one empty field and are dropped below, after counting: a record that fails then is
    // placed after them (skipped by csv-parse, they left no trace of the line the next record starts on).
    skip_empty_lines: false,
    ltrim: trim,
    rtrim: trim,
    max_record_size: maxRecordSize
  })
  const input = Readable.from(opened.chunks, { objectMode: false })
  let buffer: Array<Row> = []
  let ended = false
  let failure: unknown = undefined
  let waiting: (() => void) | undefined
  let overcount = 0
  let lastLine = opened.lineOffset
  const wake = () => {
    const resolve = waiting
    waiting = undefined
    resolve?.()
  }
  parser.on("data", ({ info, record }: Parsed) => {
    const { breaks, overcount: extra } = breaksIn(record)
    const end = info.lines - overcount - extra + opened.lineOffset
    overcount += extra
    lastLine = end
    if (record.length === 1 && record[0] === "" && breaks === 0) return
    buffer.push({ fields: record, line: end - breaks })
    if (buffer.length >= options.batchSize) {
      parser.pause()
      wake()
    }
  })
  // The end is the parser's last record out ('end'), not its input consumed (when `pipeline` settles).
  parser.once("end", () => {
    ended = true
    wake()
  })
  // Where reading stopped: csv-parse's own line (less its over-count so far) for an error within a record, the
  // line after the last good record for a quote never closed or a record too long (csv-parse reports the end of the
  // file, or where the limit was hit, thousands of lines on).
  // A quote closed on a later line than its record starts on (`Bob,"07400 100002,b` … `Di,07400 100004,"d`) is most
  // often one opened there by mistake: the record's first line is named, and the line where the quote closed.
  const fromLastRecord = new Set(["CSV_QUOTE_NOT_CLOSED", "CSV_MAX_RECORD_SIZE"])
  const textAfterQuote = new Set(["CSV_INVALID_CLOSING_QUOTE", "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE"])
  const malformed = (error: CsvError) => {
    const reported = typeof error["lines"] === "number" ? error["lines"] - overcount + opened.lineOffset : 0
    const reason = reasons[error.code] ?? error.message
    if (textAfterQuote.has(error.code) && reported > lastLine + 1) {
      return new Malformed({ code: error.code, line: lastLine + 1, reason: `${reason}; the record starting on this line runs to line ${reported}, where a quote closes: is one opened on this line by mistake?` })
    }
    const line = fromLastRecord.has(error.code) ? lastLine + 1 : Math.max(lastLine + 1, reported)
    return new Malformed({ code: error.code, line, reason })
  }
  const finished = pipeline(input, parser).then(
    () => undefined,
    (error: unknown) => {
      failure = error instanceof CsvError ? malformed(error) : error
      ended = true
      wake()
    }
  )
  void finished
  return {
    next: async () => {
      if (buffer.length < options.batchSize && !ended) await new Promise<void>((resolve) => (waiting = resolve))
      if (failure !== undefined) throw failure
      const rows = buffer
      buffer = []
      parser.resume()
      return rows
    },
    delimiter: opened.delimiter,
    encoding: opened.encoding,
    close: () => {
      input.destroy()
      parser.destroy()
    }
  }
}
