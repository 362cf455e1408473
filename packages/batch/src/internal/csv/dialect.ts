/**
 * The dialect of a contact file, found from its first bytes: the encoding (BOM, UTF-8 or Windows-1252, or forced),
 * Excel's `sep=` line and the delimiter of the header line; the bytes come out as UTF-8, streamed.
 */
import { isUtf8 } from "node:buffer"
import * as Data from "effect/Data"
import iconv from "iconv-lite"

/** The delimiters a contact file may use, in the order that breaks a tie on the header line. */
export const delimiters = [",", ";", "\t", "|"] as const
export type Delimiter = (typeof delimiters)[number]

/** Most bytes read ahead to find the header line; a longer "header" is taken as it stands. */
const headLimit = 1 << 20

/** The encoding names of the summary: what the bytes were read as. */
export type Encoding = "utf-8" | "windows-1252" | "utf-16le" | "utf-16be" | (string & {})

/** The file as the parser gets it, with what was found out about it. */
export interface Opened {
  /** The content as UTF-8 bytes, without a BOM nor a `sep=` line. */
  readonly chunks: AsyncIterable<Uint8Array>
  readonly delimiter: Delimiter
  /** Physical lines removed before the header (1 for a `sep=` line), to add back to line numbers. */
  readonly lineOffset: number
  /** The encoding decided so far: without a BOM or `--encoding`, the first non-ASCII byte decides it. */
  readonly encoding: () => Encoding
}

export interface Options {
  /** An encoding name iconv-lite knows (`windows-1252`, `latin1`, `utf-16le`…): no detection. */
  readonly encoding?: string | undefined
}

/** Whether iconv-lite can decode `name`; the command refuses other `--encoding` values. */
export const encodingExists = (name: string): boolean => iconv.encodingExists(name)

const canonical = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, "")

const isUtf8Name = (name: string): boolean => canonical(name) === "utf8"

const boms: ReadonlyArray<{ readonly bytes: ReadonlyArray<number>; readonly encoding: Encoding }> = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: "utf-8" },
  { bytes: [0xff, 0xfe], encoding: "utf-16le" },
  { bytes: [0xfe, 0xff], encoding: "utf-16be" }
]

/** The byte order mark that `bytes` starts with, if any. */
export const bomOf = (bytes: Uint8Array): { readonly encoding: Encoding; readonly length: number } | undefined => {
  for (const bom of boms) {
    if (bom.bytes.length <= bytes.length && bom.bytes.every((byte, i) => bytes[i] === byte)) {
      return { encoding: bom.encoding, length: bom.bytes.length }
    }
  }
  return undefined
}

/** The length of the UTF-8 sequence a lead byte begins (0: not a lead byte; ASCII is 1). */
const sequenceLength = (byte: number): number =>
  byte < 0x80 ? 1 : byte >= 0xc2 && byte <= 0xdf ? 2 : byte >= 0xe0 && byte <= 0xef ? 3 : byte >= 0xf0 && byte <= 0xf4 ? 4 : 0

/**
 * Reads text that starts with a non-ASCII byte as UTF-8 when that first character is valid UTF-8, else as
 * Windows-1252 (Excel's "CSV" on Windows): a Windows-1252 letter is followed by ASCII or another letter, which is
 * never a UTF-8 sequence. Only the first character decides, so a UTF-8 file with a damaged byte further on stays
 * UTF-8 (the damaged rows are rejected, loudly) rather than having every accent turned into mojibake, silently.
 * `undefined` while the bytes are only the start of a sequence and more may come.
 */
export const judge = (bytes: Uint8Array, final: boolean): "utf-8" | "windows-1252" | undefined => {
  const length = sequenceLength(bytes[0] ?? 0)
  if (length === 0) return "windows-1252"
  if (bytes.length < length) return final ? "windows-1252" : undefined
  return isUtf8(bytes.subarray(0, length)) ? "utf-8" : "windows-1252"
}

/** A file whose bytes are no text smsbook can tell the encoding of: it must be given with `--encoding`. */
export class Undecodable extends Data.TaggedError("Undecodable")<{ readonly reason: string }> {}

/** Files people export instead of CSV, by their first bytes: read as text, their bytes made a header of garbage. */
const binaryKinds: ReadonlyArray<{ readonly magic: ReadonlyArray<number>; readonly kind: string }> = [
  { magic: [0x50, 0x4b, 0x03, 0x04], kind: "a ZIP archive (an Excel .xlsx or OpenDocument .ods workbook?)" },
  { magic: [0xd0, 0xcf, 0x11, 0xe0], kind: "an old Office document (an Excel .xls workbook?)" },
  { magic: [0x1f, 0x8b], kind: "gzip-compressed (decompress it first: gunzip)" },
  { magic: [0x25, 0x50, 0x44, 0x46], kind: "a PDF document" },
  // "SQLite format 3\0": a book (or another SQLite database) given as the file to read.
  { magic: [...Buffer.from("SQLite format 3\0", "latin1")], kind: "a SQLite database (a book? import reads a CSV file)" }
]

/** Bytes read ahead before the file's kind and encoding are decided: enough for the longest of {@link binaryKinds}. */
const sniffLength = Math.max(4, ...binaryKinds.map(({ magic }) => magic.length))

/** The kind of binary file `bytes` begin, when they begin one of {@link binaryKinds}. */
export const binaryKindOf = (bytes: Uint8Array): Undecodable | undefined => {
  const found = binaryKinds.find(({ magic }) => magic.every((byte, i) => bytes[i] === byte))
  return found === undefined
    ? undefined
    : new Undecodable({ reason: `the file is not CSV text but ${found.kind}: export it as CSV (comma-separated values)` })
}

/**
 * UTF-16 or UTF-32 without a BOM, told by where the NUL bytes of the first character fall (a header starts with
 * a character below U+0100): `00 00 00 xx` UTF-32BE, `xx 00 00 00` UTF-32LE, `00 xx` UTF-16BE, `xx 00` UTF-16LE.
 * Text in an 8-bit encoding or UTF-8 has no NUL there: `undefined`. A NUL in another pattern is refused.
 */
export const wideEncodingOf = (bytes: Uint8Array): Encoding | Undecodable | undefined => {
  if (bytes.length < 2 || (bytes[0] !== 0 && bytes[1] !== 0)) return undefined
  const [a = 0, b = 0, c = 0, d = 0] = bytes
  if (bytes.length >= 4 && a === 0 && b === 0 && c === 0 && d !== 0) return "utf-32be"
  if (bytes.length >= 4 && a !== 0 && b === 0 && c === 0 && d === 0) return "utf-32le"
  if (a === 0 && b !== 0) return "utf-16be"
  if (a !== 0 && b === 0) return "utf-16le"
  return new Undecodable({
    reason: "the file starts with NUL bytes in no pattern of UTF-8, UTF-16 or UTF-32: give its encoding with --encoding"
  })
}

const firstNonAscii = (bytes: Uint8Array): number => {
  for (let i = 0; i < bytes.length; i++) if ((bytes[i] ?? 0) >= 0x80) return i
  return -1
}

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => a.length === 0 ? b : b.length === 0 ? a : Buffer.concat([a, b])

interface Decoder {
  readonly write: (bytes: Uint8Array) => Uint8Array
  readonly end: () => Uint8Array
}

const passthrough: Decoder = { write: (bytes) => bytes, end: () => new Uint8Array(0) }

const transcoder = (encoding: string): Decoder => {
  if (isUtf8Name(encoding)) return passthrough
  const decoder = iconv.getDecoder(encoding)
  return {
    write: (bytes) => Buffer.from(decoder.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)), "utf8"),
    end: () => Buffer.from(decoder.end() ?? "", "utf8")
  }
}

/** Chunks of `iterator` read ahead into one buffer: `pull` appends the next chunk, or marks the end. */
const readAhead = (iterator: AsyncIterator<Uint8Array>) => {
  const ahead: { bytes: Uint8Array; ended: boolean; pull: () => Promise<void> } = {
    bytes: new Uint8Array(0),
    ended: false,
    pull: async (): Promise<void> => {
      const next = await iterator.next()
      if (next.done === true) ahead.ended = true
      else ahead.bytes = concat(ahead.bytes, next.value)
    }
  }
  return ahead
}

/**
 * The bytes of `source` as UTF-8, BOM removed. A BOM decides the encoding, else `forced`, else the first non-ASCII
 * byte (see {@link judge}); the decision is written to `state.encoding`.
 */
async function* toUtf8(
  source: AsyncIterable<Uint8Array>,
  forced: string | undefined,
  state: { encoding: Encoding }
): AsyncGenerator<Uint8Array> {
  const ahead = readAhead(source[Symbol.asyncIterator]())
  while (!ahead.ended && ahead.bytes.length < sniffLength) await ahead.pull()
  const binary = binaryKindOf(ahead.bytes)
  if (binary !== undefined) throw binary
  const bom = bomOf(ahead.bytes)
  let decoder: Decoder | undefined
  // A BOM is the file's own word: it wins over `--encoding`, which would otherwise read it into the first header name.
  if (bom !== undefined) {
    ahead.bytes = ahead.bytes.subarray(bom.length)
    state.encoding = bom.encoding
    decoder = transcoder(bom.encoding)
  } else if (forced !== undefined) {
    state.encoding = isUtf8Name(forced) ? "utf-8" : forced
    decoder = transcoder(forced)
  } else {
    const wide = wideEncodingOf(ahead.bytes)
    if (wide instanceof Undecodable) throw wide
    if (wide !== undefined) {
      state.encoding = wide
      decoder = transcoder(wide)
    }
  }
  for (;;) {
    if (decoder === undefined) {
      const at = firstNonAscii(ahead.bytes)
      if (at === -1) {
        if (ahead.bytes.length > 0) yield ahead.bytes
        ahead.bytes = new Uint8Array(0)
      } else {
        const decided = judge(ahead.bytes.subarray(at), ahead.ended)
        if (decided !== undefined) {
          state.encoding = decided
          decoder = transcoder(decided)
          continue
        }
        if (at > 0) yield ahead.bytes.subarray(0, at)
        ahead.bytes = ahead.bytes.subarray(at)
      }
    } else if (ahead.bytes.length > 0) {
      const out = decoder.write(ahead.bytes)
      ahead.bytes = new Uint8Array(0)
      if (out.length > 0) yield out
    }
    if (ahead.ended) break
    await ahead.pull()
  }
  const rest = decoder === undefined ? ahead.bytes : concat(decoder.write(ahead.bytes), decoder.end())
  if (rest.length > 0) yield rest
}

/**
 * Calls `visit` with each character of `text` outside quoted cells, and its index, until it returns true. Quotes are
 * read as the parser reads them (`relax_quotes`): a `"` opens a quoted cell only where a cell starts (blanks before it
 * aside), `""` inside one is a quote, and a `"` inside an unquoted cell is a character (`Screen 5"`): taken for an
 * opening quote, it made the rest of the file one header line, and its quoted cells chose the delimiter.
 */
const outsideQuotes = (text: string, visit: (c: number, at: number) => boolean): void => {
  let quoted = false
  let cellStart = true
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (quoted) {
      if (c === 34 && text.charCodeAt(i + 1) === 34) i++
      else if (c === 34) quoted = false
    } else if (c === 34 && cellStart) {
      quoted = true
    } else {
      if (visit(c, i)) return
      // Any candidate delimiter may end a cell: the delimiter is not known yet.
      cellStart = c === 10 || c === 13 || (cellStart && c === 32) || delimiters.some((delimiter) => delimiter.charCodeAt(0) === c)
    }
  }
}

/**
 * The first line of `text` (up to a line break outside quoted cells) and where the next one starts; `complete`
 * says whether a line break was found.
 */
export const firstLine = (text: string): { readonly line: string; readonly next: number; readonly complete: boolean } => {
  let end = -1
  outsideQuotes(text, (c, at) => {
    if (c !== 10 && c !== 13) return false
    end = at
    return true
  })
  if (end < 0) return { line: text, next: text.length, complete: false }
  const cr = text.charCodeAt(end) === 13
  const next = cr && text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1
  return { line: text.slice(0, end), next, complete: !cr || end + 1 < text.length }
}

/**
 * The first line of `text` that holds more than white space (the header, after blank lines some exports start with);
 * not `complete` while the text ends before one, so that more is read.
 */
const firstContentLine = (
  text: string
): { readonly line: string; readonly complete: boolean; readonly end: number; readonly blanks: number } => {
  let at = 0
  for (let blanks = 0;; blanks++) {
    const line = firstLine(text.slice(at))
    if (line.line.trim() !== "" || !line.complete) return { ...line, end: at + line.next, blanks }
    at += line.next
    if (at >= text.length) return { line: "", complete: false, end: at, blanks }
  }
}

const sepPattern = /^"?sep=(.)"?\s*$/i

/** Excel's first line `sep=;` names the delimiter of the rest of the file (quoted by some tools). */
export const sepLineOf = (line: string): Delimiter | undefined => {
  const match = sepPattern.exec(line)
  const found = match?.[1]
  return delimiters.find((delimiter) => delimiter === found)
}

/**
 * The delimiter of a header line: the candidate (`,` `;` tab `|`) seen most often outside double quotes, ties going
 * to the earlier one in that order; a line with none of them (a single column) is comma-separated.
 */
export const delimiterOf = (line: string): Delimiter => {
  const counts = delimiters.map(() => 0)
  outsideQuotes(line, (c) => {
    const index = delimiters.findIndex((delimiter) => delimiter.charCodeAt(0) === c)
    if (index >= 0) counts[index] = (counts[index] ?? 0) + 1
    return false
  })
  let best = 0
  counts.forEach((count, index) => {
    if (count > (counts[best] ?? 0)) best = index
  })
  return delimiters[best] ?? ","
}

async function* prepend(head: Uint8Array, rest: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  if (head.length > 0) yield head
  for (;;) {
    const next = await rest.next()
    if (next.done === true) return
    yield next.value
  }
}

/**
 * Opens a contact file: reads ahead to the end of its header line (at most 1 MiB) to find the delimiter and a
 * `sep=` line, and returns the whole content as UTF-8 bytes, streamed: nothing but that head is held in memory.
 */
export const open = async (source: AsyncIterable<Uint8Array>, options: Options = {}): Promise<Opened> => {
  const state: { encoding: Encoding } = { encoding: "utf-8" }
  const utf8 = toUtf8(source, options.encoding, state)
  const ahead = readAhead(utf8)
  // The first line with content is a `sep=` line or the header; blank lines may come before either.
  const lines = () => {
    const text = Buffer.from(ahead.bytes.buffer, ahead.bytes.byteOffset, ahead.bytes.length).toString("utf8")
    const first = firstContentLine(text)
    const sep = first.complete ? sepLineOf(first.line) : undefined
    const header = sep === undefined ? first : firstContentLine(text.slice(first.end))
    return { text, first, sep, header }
  }
  let found = lines()
  while (!ahead.ended && ahead.bytes.length < headLimit && !found.header.complete) {
    await ahead.pull()
    found = lines()
  }
  const { text, first, sep, header } = found
  let lineOffset = 0
  if (sep !== undefined) {
    // The `sep=` line goes, with the blank lines before it: they are counted back into the rows' line numbers.
    ahead.bytes = ahead.bytes.subarray(Buffer.byteLength(text.slice(0, first.end), "utf8"))
    lineOffset = first.blanks + 1
  }
  return {
    chunks: prepend(ahead.bytes, utf8),
    delimiter: sep ?? delimiterOf(header.line),
    lineOffset,
    encoding: () => state.encoding
  }
}
