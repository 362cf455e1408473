/**
 * Laws of the contact import, over generated files in every dialect: each row accounted for once, rejects at their
 * physical lines, re-runs unchanged, dry runs that predict real runs, opt-outs kept; and the sample files' summaries.
 * Over 400 lines on purpose: the laws share one generator of files in every dialect, and the sample files' summaries
 * sit beside them as the laws' examples; split, each part would import the generator and half the helpers back.
 */
import { ContactBook, ContactStore, InvalidField, InvalidParameter, MemoryStore } from "@smsbook/core"
import { parse } from "csv-parse/sync"
import { stringify } from "csv-stringify/sync"
import { Effect, Result } from "effect"
import * as fc from "fast-check"
import iconv from "iconv-lite"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as zlib from "node:zlib"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { FileFailure } from "../../src/CliErrors.ts"
import * as Format from "../../src/Format.ts"
import * as Import from "../../src/jobs/Import.ts"
import * as ContactRows from "../../src/internal/contactRows.ts"
import * as RowCells from "../../src/internal/rowCells.ts"
import * as spreadsheet from "../../src/internal/csv/spreadsheet.ts"
import * as Columns from "../../src/internal/csv/columns.ts"
import * as CsvDialect from "../../src/internal/csv/dialect.ts"
import * as MsisdnSet from "../../src/internal/msisdnSet.ts"

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-import-test-"))
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }))
let files = 0
const tempFile = (name: string) => path.join(temporary, `${++files}-${name}`)

const samples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../samples")

// ---------------------------------------------------------------------------------------------
// Helpers

async function* chunksOf(bytes: Uint8Array, cuts: ReadonlyArray<number> = []): AsyncGenerator<Uint8Array> {
  const points = [...new Set(cuts.map((cut) => bytes.length === 0 ? 0 : cut % bytes.length))].sort((a, b) => a - b)
  let start = 0
  for (const point of [...points, bytes.length]) {
    if (point > start) yield bytes.subarray(start, point)
    start = Math.max(start, point)
  }
}

const importBytes = (bytes: Uint8Array, options: Import.Options = {}, cuts: ReadonlyArray<number> = []) =>
  Import.run(chunksOf(bytes, cuts), { defaultCountry: "GB", ...options })

const importText = (text: string, options: Import.Options = {}) => importBytes(Buffer.from(text, "utf8"), options)

/** A file of these lines imported with no default country: each row's own country cell, or none, decides. */
const importLines = (lines: ReadonlyArray<string>) => Import.run(chunksOf(new TextEncoder().encode(lines.join("\n"))), {})

const allContacts = Effect.gen(function*() {
  const store = yield* ContactStore.ContactStore
  return yield* store.list({ limit: 100_000, start: 0 })
})

const run = <A, E>(effect: Effect.Effect<A, E, ContactStore.ContactStore>): Promise<A> =>
  Effect.runPromise(Effect.provide(effect, MemoryStore.layer))

const counts = (summary: Import.Summary) => ({
  read: summary.read,
  created: summary.created,
  updated: summary.updated,
  unchanged: summary.unchanged,
  rejected: summary.rejected,
  duplicates: summary.duplicates,
  opted_out: summary.opted_out,
  rules: summary.rules,
  reasons: summary.reasons
})

const contentOf = (file: string): string | undefined => fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined

/** Temporary files left in the test directory (all runs are in this process: none may remain). */
const leftovers = () => fs.readdirSync(temporary).filter((name) => name.endsWith(".partial"))

const readRejects = (file: string, delimiter: string): ReadonlyArray<ReadonlyArray<string>> =>
  parse(fs.readFileSync(file), { bom: true, delimiter, relax_column_count: true })

// ---------------------------------------------------------------------------------------------
// Generated files

/** Distinct valid GB mobiles (7400 100000 + n), each spelled in every way the import reads. */
const national = (n: number) => `7400${String(100000 + n)}`
const msisdnOf = (n: number) => `44${national(n)}`
const spellings = (n: number): ReadonlyArray<string> => {
  const digits = national(n)
  return [
    `0${digits.slice(0, 4)} ${digits.slice(4)}`,
    `+44 ${digits}`,
    `44${digits}`,
    `0044${digits}`,
    `+44 (0)${digits}`,
    `0${digits}`,
    `'+44${digits}`
  ]
}

const invalidNumbers = [
  { raw: "call me", reason: "not-a-number" },
  { raw: "4.47E+11", reason: "scientific-notation" },
  { raw: "O7400 123481", reason: "letter-in-number" },
  { raw: "0740", reason: "too-short" },
  { raw: "074001234567890", reason: "too-long" },
  { raw: "07700 900123", reason: "invalid" },
  { raw: "+999 1234567", reason: "unknown-country" },
  { raw: "", reason: "missing-msisdn" }
] as const

type NumberCell =
  | { readonly _tag: "valid"; readonly raw: string; readonly msisdn: string }
  | { readonly _tag: "invalid"; readonly raw: string; readonly reason: string }

const validNumber: fc.Arbitrary<NumberCell> = fc.integer({ min: 0, max: 24 }).chain((n) =>
  fc.constantFrom(...spellings(n)).map((raw): NumberCell => ({ _tag: "valid", raw, msisdn: msisdnOf(n) }))
)
const invalidNumber: fc.Arbitrary<NumberCell> = fc.constantFrom(...invalidNumbers).map((bad): NumberCell => ({
  _tag: "invalid",
  ...bad
}))

/** Characters of names: delimiters, quotes, line breaks, spreadsheet formula starts, and é ü ñ (which are never
 * valid UTF-8 in Windows-1252 whatever follows them, so detection is exact on these files). */
const nameChar = fc.constantFrom(
  "a", "b", "Z", " ", "'", "-", "é", "ü", "ñ", ",", ";", "|", "\t", "\"", "\n", "\r\n", "=", "+", "@"
)
const name = fc.array(nameChar, { maxLength: 6 }).map((chars) => chars.join(""))

interface GeneratedRow {
  readonly number: NumberCell
  readonly first: string
  readonly last: string
  readonly country: string
  readonly tags: ReadonlyArray<string>
}

const generatedRow: fc.Arbitrary<GeneratedRow> = fc.record({
  number: fc.oneof({ weight: 4, arbitrary: validNumber }, { weight: 1, arbitrary: invalidNumber }),
  first: name,
  last: name,
  country: fc.constantFrom("", "", "", "GB", "gb", "44", "+44", "XX"),
  tags: fc.array(fc.constantFrom("news", "VIP", "vip", "events", " spaced "), { maxLength: 3 })
})

const headers = fc.tuple(
  fc.constantFrom("phone", "Mobile", "msisdn", "Phone Number", "TEL", "mobile_number"),
  fc.constantFrom("first name", "First Name", "given_name", "Forename", "Prénom"),
  fc.constantFrom("last name", "Surname", "LAST-NAME", "family name"),
  fc.constantFrom("country", "Country Code", "ISO"),
  fc.constantFrom("tags", "Groups", "Lists")
)

interface Dialect {
  readonly delimiter: CsvDialect.Delimiter
  readonly crlf: boolean
  readonly bom: boolean
  readonly sepLine: boolean
  readonly quoteAll: boolean
  readonly encoding: "utf-8" | "windows-1252" | "utf-16le"
  readonly forceEncoding: boolean
  readonly blankLines: ReadonlyArray<number>
  /** Blank lines before the first line (the `sep=` line or the header), as some exports start. */
  readonly leadingBlanks: number
}

const dialect: fc.Arbitrary<Dialect> = fc.record({
  delimiter: fc.constantFrom(...CsvDialect.delimiters),
  crlf: fc.boolean(),
  bom: fc.boolean(),
  sepLine: fc.boolean(),
  quoteAll: fc.boolean(),
  encoding: fc.constantFrom("utf-8", "utf-8", "windows-1252", "utf-16le"),
  forceEncoding: fc.boolean(),
  blankLines: fc.array(fc.nat(30), { maxLength: 4 }),
  leadingBlanks: fc.nat(2)
})

type Expected =
  | { readonly _tag: "blank" }
  | { readonly _tag: "reject"; readonly line: number; readonly reason: string; readonly cells: ReadonlyArray<string> }
  | { readonly _tag: "accept"; readonly msisdn: string }

interface GeneratedFile {
  readonly bytes: Uint8Array
  readonly text: string
  readonly dialect: Dialect
  readonly expected: ReadonlyArray<Expected>
  readonly cuts: ReadonlyArray<number>
}

const lineBreaks = (text: string): number => (text.match(/\r\n|\r|\n/g) ?? []).length

/** What the import must make of a row, by the documented rules, decided here without the import's code. */
const expectation = (row: GeneratedRow, cells: ReadonlyArray<string>, line: number): Expected => {
  if (cells.every((cell) => cell.trim() === "")) return { _tag: "blank" }
  const reject = (reason: string): Expected => ({ _tag: "reject", line, reason, cells })
  if (row.number.raw.trim() === "") return reject("missing-msisdn")
  if (row.country === "XX") {
    // An unreadable country cell only loses numbers that do not carry their calling code; problems of the
    // characters are found before the country is looked at.
    if (row.number._tag === "valid") {
      return /^'?(?:\+|00|44)/.test(row.number.raw) ? { _tag: "accept", msisdn: row.number.msisdn } : reject("bad-country")
    }
    const own = ["not-a-number", "scientific-notation", "letter-in-number", "unknown-country"]
    return reject(own.includes(row.number.reason) ? row.number.reason : "bad-country")
  }
  return row.number._tag === "invalid" ? reject(row.number.reason) : { _tag: "accept", msisdn: row.number.msisdn }
}

const encode = (text: string, { bom, encoding }: Dialect): Uint8Array => {
  const body = iconv.encode(text, encoding)
  const mark = encoding === "utf-8" && bom ? [0xef, 0xbb, 0xbf] : encoding === "utf-16le" ? [0xff, 0xfe] : []
  return Buffer.concat([Buffer.from(mark), body])
}

const generatedFile: fc.Arbitrary<GeneratedFile> = fc.record({
  header: headers,
  rows: fc.array(generatedRow, { maxLength: 30 }),
  dialect,
  cuts: fc.array(fc.nat(), { maxLength: 6 })
}).map(({ cuts, dialect, header, rows }) => {
  const options = {
    delimiter: dialect.delimiter,
    record_delimiter: dialect.crlf ? "windows" as const : "unix" as const,
    quoted: dialect.quoteAll,
    quoted_match: /[\r\n]/
  }
  let text = ""
  let line = 1
  const add = (piece: string) => {
    text += piece
    line += lineBreaks(piece)
  }
  add((dialect.crlf ? "\r\n" : "\n").repeat(dialect.leadingBlanks))
  if (dialect.sepLine) add(`sep=${dialect.delimiter}${dialect.crlf ? "\r\n" : "\n"}`)
  add(stringify([[...header]], options))
  const expected = rows.map((row, i) => {
    if (dialect.blankLines.includes(i)) add(dialect.crlf ? "\r\n" : "\n")
    const cells = [row.number.raw, row.first, row.last, row.country, row.tags.join(",")]
    const start = line
    const record = stringify([cells], options)
    add(record)
    // The cells as the import's parser sees them (unquoted ones trimmed but with a tab delimiter).
    const trim = dialect.delimiter !== "\t"
    const parsed: ReadonlyArray<string> = parse(record, { delimiter: dialect.delimiter, ltrim: trim, rtrim: trim, relax_quotes: true })[0] ?? []
    return expectation(row, parsed, start)
  })
  return { bytes: encode(text, dialect), text, dialect, expected, cuts }
})

/** The encoding the summary must report: a BOM's, else the forced one, else UTF-8 until a non-ASCII byte decides. */
const expectedEncoding = ({ dialect, text }: GeneratedFile): string =>
  dialect.forceEncoding || dialect.encoding === "utf-16le" || /[^\x00-\x7f]/.test(text) ? dialect.encoding : "utf-8"

const optionsFor = (file: GeneratedFile, rejectsPath?: string): Import.Options => ({
  encoding: file.dialect.forceEncoding ? file.dialect.encoding : undefined,
  rejectsPath
})

// ---------------------------------------------------------------------------------------------
// Laws

describe("Import laws", () => {
  it("every row lands in exactly one of created/updated/unchanged/rejected, with rejects at their physical lines", async () => {
    await fc.assert(
      fc.asyncProperty(generatedFile, async (file) => {
        const rejectsPath = tempFile("rejects.csv")
        const summary = await run(importBytes(file.bytes, optionsFor(file, rejectsPath), file.cuts))
        const rows = file.expected.filter((row) => row._tag !== "blank")
        const rejects = file.expected.flatMap((row) => row._tag === "reject" ? [row] : [])
        const accepted = file.expected.flatMap((row) => row._tag === "accept" ? [row.msisdn] : [])
        expect(summary.read).toBe(rows.length)
        expect(summary.created + summary.updated + summary.unchanged + summary.rejected).toBe(summary.read)
        expect(summary.rejected).toBe(rejects.length)
        expect(summary.created).toBe(new Set(accepted).size)
        expect(summary.duplicates).toBe(accepted.length - new Set(accepted).size)
        expect(summary.delimiter).toBe(file.dialect.delimiter)
        expect(summary.encoding).toBe(expectedEncoding(file))
        if (rejects.length === 0) {
          expect(summary.rejects_file).toBeNull()
          expect(fs.existsSync(rejectsPath)).toBe(false)
          return
        }
        expect(summary.rejects_file).toBe(rejectsPath)
        const [header, ...written] = readRejects(rejectsPath, file.dialect.delimiter)
        expect(header?.slice(0, 3)).toEqual(["line", "reason", "message"])
        expect(written.map((row) => [Number(row[0]), row[1]])).toEqual(rejects.map((row) => [row.line, row.reason]))
        // The row's own cells follow, as parsed (unquoted cells trimmed), neutralised for spreadsheets.
        expect(written.map((row) => row.slice(3))).toEqual(rejects.map((row) => row.cells.map(spreadsheet.neutralizeRaw)))
      }),
      { numRuns: 120 }
    )
  })

  it("read on a worker thread, every file gives the same summary, rejects file and contacts as read on this one", async () => {
    const outcome = (bytes: Uint8Array, options: Import.Options, cuts: ReadonlyArray<number>, worker: boolean) => {
      const rejectsPath = tempFile("rejects.csv")
      return run(Effect.gen(function*() {
        const result = yield* Effect.result(importBytes(bytes, { ...options, rejectsPath, worker }, cuts))
        const summary = Result.isSuccess(result)
          ? { ...result.success, elapsed_ms: 0, rows_per_second: 0, rejects_file: result.success.rejects_file !== null }
          : result.failure.message
        const contacts = (yield* allContacts).map(({ profile_uid: _, ...contact }) => contact)
        return { summary, rejects: contentOf(rejectsPath), contacts }
      }))
    }
    await fc.assert(
      fc.asyncProperty(generatedFile, async (file) => {
        const options = optionsFor(file)
        expect(await outcome(file.bytes, options, file.cuts, true)).toEqual(await outcome(file.bytes, options, file.cuts, false))
      }),
      // Each run starts a worker, which loads the modules again: a few runs, the dialects spread by the generator.
      { numRuns: 10 }
    )
    // Files that cannot be read, or only in part: the same refusal, naming the same line.
    const header = "phone,first_name,last_name,tags\n"
    for (const text of ["", `${header}07400 100001,Ann,,\n07400 100002,"Bea,,\n07400 100003,C,,\n`, `${header}07400 100001,"Ann"x,,\n`, "name,tags\nAnn,x\n"]) {
      const bytes = Buffer.from(text, "utf8")
      const [onWorker, here] = [await outcome(bytes, {}, [], true), await outcome(bytes, {}, [], false)]
      expect(onWorker).toEqual(here)
      expect(typeof here.summary).toBe("string")
    }
    // Only a file known to be large goes to a worker: a pipe's rows are read as they come.
    expect([undefined, 0, 1000, 4 << 20].map(Import.worthAWorker)).toEqual([false, false, false, false])
    expect(Import.worthAWorker(40_000_000)).toBe(true)
  }, 300_000)

  it("a second run of the same file changes nothing: all unchanged", async () => {
    await fc.assert(
      fc.asyncProperty(generatedFile, fc.boolean(), async (file, blankErases) => {
        const options = { ...optionsFor(file), blankErases }
        const [first, before, second, after] = await run(Effect.gen(function*() {
          const first = yield* importBytes(file.bytes, options, file.cuts)
          const before = yield* allContacts
          const second = yield* importBytes(file.bytes, options)
          return [first, before, second, yield* allContacts] as const
        }))
        expect(second.read).toBe(first.read)
        expect(second.rejected).toBe(first.rejected)
        expect(second.unchanged).toBe(second.read - second.rejected)
        expect(after).toEqual(before)
      }),
      { numRuns: 60 }
    )
  })

  it("a dry run writes nothing but its rejects preview, and reports exactly what the real run then does", async () => {
    await fc.assert(
      fc.asyncProperty(generatedFile, generatedFile, async (earlier, file) => {
        const rejectsPath = tempFile("rejects.csv")
        const [dry, before, after, real, files] = await run(Effect.gen(function*() {
          yield* importBytes(earlier.bytes, optionsFor(earlier, rejectsPath))
          const before = yield* allContacts
          const earlierRejects = contentOf(rejectsPath)
          const dry = yield* importBytes(file.bytes, { ...optionsFor(file, rejectsPath), dryRun: true })
          const preview = contentOf(rejectsPath)
          const after = yield* allContacts
          const real = yield* importBytes(file.bytes, optionsFor(file, rejectsPath))
          return [dry, before, after, real, { earlierRejects, preview, real: contentOf(rejectsPath) }] as const
        }))
        expect(after).toEqual(before)
        expect(dry.dry_run && !dry.committed).toBe(true)
        expect(real.committed).toBe(true)
        expect(counts(dry)).toEqual(counts(real))
        expect(dry.rejects_file).toBe(real.rejects_file)
        // The preview is the real run's rejects file; without rejected rows, whatever was there stays.
        expect(files.preview).toBe(dry.rejected > 0 ? files.real : files.earlierRejects)
        expect(leftovers()).toEqual([])
      }),
      { numRuns: 40 }
    )
  })

  it("read on a worker, progress counts the bytes its rows came from, not the bytes handed to it ahead", async () => {
    const rows = 100_000
    const text = "phone,first_name\n" + Array.from({ length: rows }, (_, i) => `07400 ${String(100_000 + i)},Name ${i}\n`).join("")
    const bytes = Buffer.from(text, "utf8")
    const cuts = Array.from({ length: Math.ceil(bytes.length / 65536) }, (_, i) => i * 65536)
    const seen: Array<Import.Progress> = []
    await run(importBytes(bytes, { worker: true, onProgress: (progress) => Effect.sync(() => void seen.push(progress)) }, cuts))
    expect(seen.length).toBeGreaterThan(10)
    for (const [i, progress] of seen.entries()) {
      const share = (progress.input_bytes ?? Number.NaN) / bytes.length
      // Within a chunk or two of the rows' own share of the file (the parser's read-ahead), never megabytes ahead.
      expect(share).toBeLessThanOrEqual(progress.read / rows + 0.1)
      expect(share).toBeLessThanOrEqual(1)
      if (i > 0) expect(progress.input_bytes).toBeGreaterThanOrEqual(seen[i - 1]?.input_bytes ?? 0)
    }
  })

  it("a CANCELLED contact stays CANCELLED whatever is imported, and its rows are counted as opted out", async () => {
    await fc.assert(
      fc.asyncProperty(
        generatedFile,
        generatedFile,
        fc.uniqueArray(fc.integer({ min: 0, max: 24 }), { maxLength: 10 }),
        fc.boolean(),
        async (earlier, file, cancelled, blankErases) => {
          const optedOut = new Set(cancelled.map(msisdnOf))
          const [summary, contacts] = await run(Effect.gen(function*() {
            yield* importBytes(earlier.bytes, optionsFor(earlier))
            for (const msisdn of optedOut) {
              yield* ContactBook.createContact(msisdn, {}).pipe(Effect.ignore)
              yield* ContactBook.optOut(msisdn)
            }
            const summary = yield* importBytes(file.bytes, { ...optionsFor(file), blankErases })
            return [summary, yield* allContacts] as const
          }))
          for (const contact of contacts) {
            if (optedOut.has(contact.msisdn)) expect(contact.status).toBe("CANCELLED")
          }
          const rows = file.expected.filter((row) => row._tag === "accept" && optedOut.has(row.msisdn))
          expect(summary.opted_out).toBe(rows.length)
          expect(new Set(summary.opted_out_msisdns)).toEqual(
            new Set(rows.flatMap((row) => row._tag === "accept" ? [row.msisdn] : []))
          )
          // The text lists them all, without the "…" of a list cut at its limit (these files hold fewer numbers).
          const line = Format.importSummary("f.csv", summary).find((text) => text.includes("opted-out"))
          if (rows.length === 0) expect(line).toBeUndefined()
          else expect(line).toBe(`  ${rows.length} row${rows.length === 1 ? "" : "s"} of opted-out contacts, left CANCELLED: ${summary.opted_out_msisdns.join(", ")}`)
        }
      ),
      { numRuns: 40 }
    )
  })

  it("a rejects file, once its numbers are fixed, imports cleanly", async () => {
    await fc.assert(
      fc.asyncProperty(generatedFile, async (file) => {
        const rejectsPath = tempFile("rejects.csv")
        const fixedPath = tempFile("fixed.csv")
        const [first, fixed] = await run(Effect.gen(function*() {
          const first = yield* importBytes(file.bytes, optionsFor(file, rejectsPath))
          if (first.rejects_file === null) return [first, undefined] as const
          const [header = [], ...rows] = readRejects(first.rejects_file, file.dialect.delimiter)
          // The user's fix: a number that reads (a new one per row), and a country the book knows.
          const repaired = rows.map((row, i) => [...row.slice(0, 3), `+44 7400 2${String(i).padStart(5, "0")}`, ...row.slice(4, 6), "GB", ...row.slice(7)])
          fs.writeFileSync(fixedPath, stringify([header, ...repaired], { delimiter: file.dialect.delimiter }))
          const fixed = yield* Import.run(fs.createReadStream(fixedPath), { defaultCountry: "GB" })
          return [first, fixed] as const
        }))
        if (fixed === undefined) {
          expect(first.rejected).toBe(0)
          return
        }
        expect(fixed.rejected).toBe(0)
        expect(fixed.created).toBe(first.rejected)
        expect(fixed.unknown_columns).toEqual([])
      }),
      { numRuns: 40 }
    )
  })
})

// ---------------------------------------------------------------------------------------------
// Examples

describe("Import semantics", () => {
  const header = "phone,first_name,last_name,tags\n"

  it("creates new contacts SUBSCRIBED from FILE_UPLOAD, with --tags added to the row's own", async () => {
    const contacts = await run(Effect.gen(function*() {
      yield* importText(`${header}07400 100001,Ann,Lee,news|vip\n`, { tags: ["nightly"] })
      return yield* allContacts
    }))
    expect(contacts).toMatchObject([
      { msisdn: "447400100001", first_name: "Ann", last_name: "Lee", full_name: "Ann Lee", status: "SUBSCRIBED", added_from: "FILE_UPLOAD", tags: ["news", "vip", "nightly"] }
    ])
  })

  it("a row with a tag longer than a store can index is refused (tag-too-long), not the file; so is such a --tags", async () => {
    const longest = "t".repeat(255)
    const [summary, contacts, refused] = await run(Effect.gen(function*() {
      const summary = yield* importText(`${header}07400 100001,Ann,Lee,${longest}\n07400 100002,Bob,Ray,${longest}x|news\n`)
      const refused = yield* Effect.flip(importText(`${header}07400 100003,Cy,,\n`, { tags: [`${longest}x`] }))
      return [summary, yield* allContacts, refused] as const
    }))
    expect(summary).toMatchObject({ created: 1, rejected: 1, reasons: { "tag-too-long": 1 } })
    expect(contacts.map((contact) => [contact.msisdn, contact.tags])).toEqual([["447400100001", [longest]]])
    expect(refused).toMatchObject({ _tag: "InvalidParameter", parameter: "--tags" })
  })

  it("a row of more tags than a contact takes, or a name longer than one holds, is refused by name (too-many-tags, name-too-long)", async () => {
    const fifty = Array.from({ length: 50 }, (_, i) => `g${i}`)
    const longest = "n".repeat(255)
    const rows = [
      `07400 100001,${longest},Lee,${fifty.join("|")}`,
      // Fifty distinct, and the same again in another case: still fifty.
      `07400 100002,Bob,Ray,${[...fifty, ...fifty.map((tag) => tag.toUpperCase())].join("|")}`,
      `07400 100003,Cy,Ray,${[...fifty, "one-more"].join("|")}`,
      `07400 100004,Dee,${longest}x,news`,
      `07400 100005,${longest}x,,news`
    ]
    const [summary, contacts] = await run(Effect.gen(function*() {
      const summary = yield* importText(`${header}${rows.join("\n")}\n`)
      return [summary, yield* allContacts] as const
    }))
    expect(summary).toMatchObject({ created: 2, rejected: 3, reasons: { "too-many-tags": 1, "name-too-long": 2 } })
    expect(contacts.map((contact) => [contact.msisdn, contact.tags.length])).toEqual([["447400100001", 50], ["447400100002", 50]])
    // An export carries what its book held (many rows or imports may have given a contact more): a moved book keeps it.
    const sixty = Array.from({ length: 60 }, (_, i) => `g${i}`).join("|")
    const huge = Array.from({ length: 251 }, (_, i) => `h${i}`).join("|")
    const exported = await run(importLines([
      "msisdn,first_name,tags,status,monitoring",
      `447400100009,${"n".repeat(300)},${sixty},SUBSCRIBED,false`,
      // Bounded all the same, a few times over: a file that only looks like an export plants nothing no page can hold.
      `447400100010,Ann,${huge},SUBSCRIBED,false`,
      `447400100011,${"n".repeat(1021)},news,SUBSCRIBED,false`
    ]))
    expect(exported).toMatchObject({ created: 1, rejected: 2, reasons: { "too-many-tags": 1, "name-too-long": 1 } })
    // So is a --tags that takes a row past the bound.
    const tagged = await run(importText(`${header}07400 100006,Eve,,${fifty.slice(0, 45).join("|")}\n`, { tags: ["a", "b", "c", "d", "e", "f"] }))
    expect(tagged).toMatchObject({ created: 0, rejected: 1, reasons: { "too-many-tags": 1 } })
  })

  it("blanks keep stored names unless --blank-erases", async () => {
    const [kept, erased] = await run(Effect.gen(function*() {
      yield* importText(`${header}07400 100001,Ann,Lee,\n`)
      yield* importText(`${header}07400 100001,,Smith,\n`)
      const kept = yield* allContacts
      yield* importText(`${header}07400 100001,,Smith,\n`, { blankErases: true })
      return [kept, yield* allContacts] as const
    }))
    expect(kept[0]).toMatchObject({ first_name: "Ann", last_name: "Smith" })
    expect(erased[0]).toMatchObject({ first_name: "", last_name: "Smith", full_name: "Smith" })
  })

  it("a number twice in a file: the first row's names, both rows' tags, reported as a duplicate", async () => {
    const text = `${header}07400 100001,Ann,Lee,a\n+44 7400 100001,Bea,,b\n`
    const [first, contacts, second] = await run(Effect.gen(function*() {
      const first = yield* importText(text)
      const contacts = yield* allContacts
      return [first, contacts, yield* importText(text)] as const
    }))
    expect(counts(first)).toMatchObject({ read: 2, created: 1, updated: 1, duplicates: 1 })
    expect(contacts[0]).toMatchObject({ first_name: "Ann", last_name: "Lee", tags: ["a", "b"] })
    expect(counts(second)).toMatchObject({ read: 2, unchanged: 2 })
  })

  it("duplicates are found across batches too", async () => {
    const rows = Array.from({ length: 50 }, (_, i) => `07400 1000${String(i % 20).padStart(2, "0")},N${i},,t${i}\n`)
    const summary = await run(importText(header + rows.join(""), { batchSize: 7 }))
    expect(counts(summary)).toMatchObject({ read: 50, created: 20, duplicates: 30 })
  })

  it("a file without a phone-number column is refused, naming its columns", async () => {
    const error = await run(Effect.flip(importText("name,email\nAnn,a@b.c\n")))
    expect(error).toBeInstanceOf(InvalidField)
    expect(error.message).toContain("\"name\", \"email\"")
  })

  it("an empty file is refused", async () => {
    const error = await run(Effect.flip(importText("")))
    expect(error).toBeInstanceOf(InvalidField)
  })

  it("--map names a column for a field, overriding the header names; a mapping to no column is refused", async () => {
    const text = "Phone,Home Phone,Who\n07400 100001,07400 100002,Ann\n"
    const summary = await run(importText(text, { map: ["Home Phone=msisdn", "who=first name", "Phone=ignore"] }))
    expect(summary.columns).toEqual({ msisdn: "Home Phone", first_name: "Who" })
    expect(summary.unknown_columns).toEqual([])
    const error = await run(Effect.flip(importText(text, { map: ["Mobile=msisdn"] })))
    expect(error).toBeInstanceOf(InvalidParameter)
  })

  it("an unclosed quote makes the file unreadable from there: refused, nothing written", async () => {
    const [error, contacts] = await run(Effect.gen(function*() {
      const error = yield* Effect.flip(importText(`${header}07400 100001,Ann,,\n07400 100002,"Bea,,\n07400 100003,C,,\n`))
      return [error, yield* allContacts] as const
    }))
    expect(error).toBeInstanceOf(InvalidParameter)
    expect(error.message).toContain("line 3")
    expect(contacts).toEqual([])
  })

  it("blank lines before the header: the delimiter is the header's, read in any chunking", async () => {
    const text = "\r\n\n  \nmsisdn;first_name\n447400123456;Ann\n"
    const bytes = Buffer.from(text, "utf8")
    for (const cuts of [[], [1], [2, 3], [6]]) {
      const [summary, contacts] = await run(Effect.gen(function*() {
        const summary = yield* importBytes(bytes, {}, cuts)
        return [summary, yield* allContacts] as const
      }))
      expect(summary).toMatchObject({ delimiter: ";", created: 1, rejected: 0 })
      expect(contacts.map((contact) => contact.first_name)).toEqual(["Ann"])
    }
  })

  it("a workbook, archive or PDF exported instead of CSV is refused in a line that says so, not read as a header", async () => {
    const zipped = new Uint8Array(zlib.gzipSync("msisdn\n447400123456\n"))
    for (const [bytes, kind] of [
      [Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(2000, 7)]), "ZIP archive"],
      [Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0]), Buffer.alloc(2000, 0)]), "old Office document"],
      [zipped, "gzip-compressed"],
      [Buffer.from("%PDF-1.7\n"), "PDF document"],
      // A book given as the FILE (`smsbook import book.db`): its bytes became a header of NULs and page data.
      [Buffer.concat([Buffer.from("SQLite format 3\0"), Buffer.alloc(4080, 0)]), "SQLite database"]
    ] as const) {
      const error = await run(Effect.flip(importBytes(bytes)))
      expect(error).toBeInstanceOf(InvalidParameter)
      expect(error.message).toContain(kind)
      expect(error.message.length).toBeLessThan(300)
    }
  })

  it("a record over 1 MiB is refused at the line it starts on, not where the limit was hit", async () => {
    for (const eol of ["\n", "\r\n"]) {
      for (const [blank, line] of [["", 3], [eol, 4], [`${eol}${eol}`, 5]] as const) {
        const text = `${header}07400 100001,Ann,,${eol}${blank}07400 100002,"${`x${eol}`.repeat(600_000)}",,${eol}`
        const error = await run(Effect.flip(importText(text)))
        expect(error).toBeInstanceOf(InvalidParameter)
        expect(error.message).toContain(`line ${line}:`)
      }
    }
  })

  it("text after a closing quote is refused with its line, nothing written", async () => {
    const error = await run(Effect.flip(importText(`${header}07400 100001,Ann,,\n\n07400 100002,"Bea"x,,\n`)))
    expect(error).toBeInstanceOf(InvalidParameter)
    expect(error.message).toContain("line 4:")
    // A quote opened by mistake closes lines later: the line it opened on is named, and where it closed.
    const opened = await run(Effect.flip(importText(`${header}07400 100001,Ann,,\n07400 100002,"Bob,,\n07400 100003,Cy,,\n07400 100004,"Di,,\n`)))
    expect(opened.message).toContain("line 3:")
    expect(opened.message).toContain("runs to line 5")
  })

  it("over --max-rejects the import is rolled back and says so; at the limit it is committed", async () => {
    const text = `${header}07400 100001,Ann,,\nnope,Bea,,\n`
    const [over, contactsOver, at, contactsAt, percent] = await run(Effect.gen(function*() {
      const over = yield* importText(text, { maxRejects: { _tag: "Count", count: 0 } })
      const contactsOver = yield* allContacts
      const at = yield* importText(text, { maxRejects: { _tag: "Count", count: 1 } })
      const contactsAt = yield* allContacts
      const percent = yield* importText(text, { maxRejects: { _tag: "Percent", percent: 49.9 } })
      return [over, contactsOver, at, contactsAt, percent] as const
    }))
    expect(over).toMatchObject({ max_rejects_exceeded: true, committed: false, created: 1, rejected: 1 })
    expect(contactsOver).toEqual([])
    expect(at).toMatchObject({ max_rejects_exceeded: false, committed: true })
    expect(contactsAt.length).toBe(1)
    expect(percent).toMatchObject({ max_rejects_exceeded: true, committed: false })
  })

  it("a clean run removes the rejects file of an earlier run, and only ours", async () => {
    const rejectsPath = tempFile("rejects.csv")
    await run(importText(`${header}nope,Ann,,\n`, { rejectsPath }))
    expect(fs.existsSync(rejectsPath)).toBe(true)
    await run(importText(`${header}07400 100001,Ann,,\n`, { rejectsPath }))
    expect(fs.existsSync(rejectsPath)).toBe(false)
    fs.writeFileSync(rejectsPath, "something,else\n")
    await run(importText(`${header}07400 100001,Ann,,\n`, { rejectsPath }))
    expect(fs.readFileSync(rejectsPath, "utf8")).toBe("something,else\n")
  })

  it("a rejects path that cannot be written is refused before anything is read or written", async () => {
    const rejectsPath = path.join(temporary, "no-such-directory", "rejects.csv")
    async function* unread(): AsyncGenerator<Uint8Array> {
      yield* []
      throw new Error("the input was read")
    }
    const [error, contacts] = await run(Effect.gen(function*() {
      const error = yield* Effect.flip(Import.run(unread(), { rejectsPath, tags: ["new"] }))
      return [error, yield* allContacts] as const
    }))
    expect(error).toBeInstanceOf(InvalidParameter)
    expect(error).toMatchObject({ parameter: "--rejects", value: rejectsPath })
    expect(error.message).toContain("no such directory")
    expect(contacts).toEqual([])
  })

  it("a rejects file that cannot be put in place rolls the import back", async () => {
    const rejectsPath = tempFile("rejects.csv")
    // Once the rejects file is open, a directory takes its place: the rename at the end must fail.
    const onProgress = () => Effect.sync(() => void fs.mkdirSync(rejectsPath, { recursive: true }))
    const [error, contacts] = await run(Effect.gen(function*() {
      const error = yield* Effect.flip(importText(`${header}07400 100001,Ann,,\nnope,Bea,,\n`, { rejectsPath, onProgress }))
      return [error, yield* allContacts] as const
    }))
    expect(error).toBeInstanceOf(FileFailure)
    expect(error.message).toContain(rejectsPath)
    expect(contacts).toEqual([])
    expect(leftovers()).toEqual([])
  })

  it("a dry run never removes a rejects file, not even with no rejected row", async () => {
    const rejectsPath = tempFile("rejects.csv")
    await run(importText(`${header}nope,Ann,,\n`, { rejectsPath }))
    const earlier = contentOf(rejectsPath)
    expect(earlier).toContain("not-a-number")
    const dry = await run(importText(`${header}07400 100001,Ann,,\n`, { rejectsPath, dryRun: true }))
    expect(dry.rejects_file).toBeNull()
    expect(contentOf(rejectsPath)).toBe(earlier)
  })

  it("rejects cells a spreadsheet would run are neutralised", async () => {
    const rejectsPath = tempFile("rejects.csv")
    await run(importText(`${header}=1+1,@SUM(A1),-2,+x\n`, { rejectsPath }))
    const [, row] = readRejects(rejectsPath, ",")
    expect(row?.slice(3)).toEqual(["'=1+1", "'@SUM(A1)", "'-2", "'+x"])
  })

  it("invalid UTF-8 after a UTF-8 start rejects the row as bad-encoding", async () => {
    const bytes = Buffer.concat([
      Buffer.from(`${header}07400 100001,Zoë,,\n07400 100002,`),
      Buffer.from([0x5a, 0x6f, 0xeb]),
      Buffer.from(",,\n")
    ])
    const summary = await run(importBytes(bytes))
    expect(counts(summary)).toMatchObject({ read: 2, created: 1, rejected: 1, reasons: { "bad-encoding": 1 } })
  })
})

describe("sample files", () => {
  const sample = (name: string) => fs.readFileSync(path.join(samples, name))

  it("contacts.csv: 20 clean rows, all created, then all unchanged", async () => {
    const [first, second] = await run(Effect.gen(function*() {
      const first = yield* importBytes(sample("contacts.csv"))
      return [first, yield* importBytes(sample("contacts.csv"))] as const
    }))
    expect(counts(first)).toEqual({
      read: 20,
      created: 20,
      updated: 0,
      unchanged: 0,
      rejected: 0,
      duplicates: 0,
      opted_out: 0,
      rules: { "international": 10, "national": 8, "trunk-prefix-dropped": 1, "calling-code-digits": 1 },
      reasons: {}
    })
    expect(first).toMatchObject({ encoding: "utf-8", delimiter: ",", unknown_columns: [] })
    expect(counts(second)).toMatchObject({ read: 20, unchanged: 20 })
  })

  it("a UTF-8 BOM decides the encoding over --encoding: the header and the names are read as written", async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("First Name,Mobile\nZoë,07400123701\n", "utf8")])
    const [summary, contacts] = await run(Effect.gen(function*() {
      const summary = yield* importBytes(bytes, { encoding: "windows-1252", defaultCountry: "GB" })
      return [summary, yield* allContacts] as const
    }))
    expect(summary).toMatchObject({ encoding: "utf-8", unknown_columns: [], created: 1 })
    expect(contacts.map((contact) => contact.first_name)).toEqual(["Zoë"])
  })

  it("excel-export.csv: Windows-1252, sep=; line, CRLF, a multi-line note, countries per row", async () => {
    const [summary, contacts] = await run(Effect.gen(function*() {
      const summary = yield* Import.run(chunksOf(sample("excel-export.csv")), {})
      return [summary, yield* allContacts] as const
    }))
    expect(counts(summary)).toMatchObject({ read: 8, created: 8, rejected: 0, rules: { national: 8 } })
    expect(summary).toMatchObject({ encoding: "windows-1252", delimiter: ";", unknown_columns: ["Notes"] })
    expect(contacts.map((contact) => contact.full_name)).toEqual(expect.arrayContaining(["Amélie Dupont", "Zoë Brontë", "José Núñez", "Søren Kierkegaard", "Cécile Beaumont"]))
    expect(contacts.find((contact) => contact.last_name === "Brontë")?.tags).toEqual(["clients", "vip"])
  })

  it("world.csv: every written form kept, only the deliberately bad rows rejected, then all unchanged", async () => {
    const [first, second] = await run(Effect.gen(function*() {
      const first = yield* importBytes(sample("world.csv"))
      return [first, yield* importBytes(sample("world.csv"))] as const
    }))
    expect(first).toMatchObject({
      read: 32,
      created: 28,
      rejected: 4,
      reasons: { "scientific-notation": 1, "not-a-number": 1, "letter-in-number": 1, "lost-leading-zero": 1 },
      notes: {
        "trunk-prefix-added": 3,
        "country-ignored": 1,
        "extension-dropped": 1,
        "letters-converted": 1,
        "phone-from-fallback-column": 2,
        "ambiguous": 0
      },
      columns: { msisdn: "Mobile Phone", country: "Country" },
      fallback_columns: ["Phone"],
      unknown_columns: ["Note"]
    })
    expect(second).toMatchObject({ read: 32, unchanged: 28, rejected: 4, created: 0, updated: 0 })
  })

  it("bad-rows.csv: one row of every kind of problem, each rejected with its reason and line", async () => {
    const rejectsPath = tempFile("bad-rows.rejects.csv")
    const summary = await run(importBytes(sample("bad-rows.csv"), { rejectsPath }))
    expect(counts(summary)).toEqual({
      read: 13,
      created: 2,
      updated: 1,
      unchanged: 0,
      rejected: 10,
      duplicates: 1,
      opted_out: 0,
      rules: { "international": 0, "national": 3, "trunk-prefix-dropped": 0, "calling-code-digits": 0 },
      reasons: {
        "missing-msisdn": 1,
        "not-a-number": 1,
        "scientific-notation": 1,
        "lost-leading-zero": 1,
        "too-short": 1,
        "too-long": 1,
        "invalid": 1,
        "bad-country": 1,
        "unknown-country": 1,
        "too-many-fields": 1
      }
    })
    const [, ...rows] = readRejects(rejectsPath, ",")
    expect(rows.map((row) => [row[0], row[1]])).toEqual([
      ["3", "missing-msisdn"],
      ["4", "not-a-number"],
      ["5", "scientific-notation"],
      ["6", "lost-leading-zero"],
      ["7", "too-short"],
      ["8", "too-long"],
      ["9", "invalid"],
      ["10", "bad-country"],
      ["11", "unknown-country"],
      ["13", "too-many-fields"]
    ])
  })
})

// ---------------------------------------------------------------------------------------------
// The parts

describe("dialect detection", () => {
  it("the delimiter is the candidate seen most outside quotes, ties in the order , ; tab |", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CsvDialect.delimiters),
        fc.array(fc.stringMatching(/^[A-Za-z ]{1,8}$/), { minLength: 2, maxLength: 6 }),
        (delimiter, names) => {
          const quotedNoise = `"a,b;c|d\te"`
          expect(CsvDialect.delimiterOf([quotedNoise, ...names].join(delimiter))).toBe(delimiter)
        }
      )
    )
    expect(CsvDialect.delimiterOf("phone")).toBe(",")
    expect(CsvDialect.delimiterOf("a;b,c")).toBe(",")
  })

  it("a quote inside an unquoted header cell is a character, as the parser reads it, not the start of a quoted cell", async () => {
    // `Screen 5"`: the parser (relax_quotes) keeps the quote; read as an opening quote, the header line ran on into the
    // rows, and their quoted `Smith, John` cells made the file comma-separated (refused whole at line 2).
    expect(CsvDialect.firstLine("Name;Mobile;Screen 5\"\n\"Smith, Jo\";07400 123456\n")).toEqual({ line: "Name;Mobile;Screen 5\"", next: 22, complete: true })
    expect(CsvDialect.delimiterOf("Name;Screen 5\";\"Phone, mobile\";Tags")).toBe(";")
    expect(CsvDialect.delimiterOf("\"a;b;c\",Mobile, \"d;e\"")).toBe(",")
    const rows = ["\"Smith, John, Jr\";07400 123450;\"x, y\"", "\"Jones, Ann\";07400 123451;\"x, y\""]
    const summary = await run(importText(["First Name;Mobile;Screen 5\"", ...rows].join("\n")))
    expect(summary.delimiter).toBe(";")
    expect(counts(summary)).toMatchObject({ read: 2, created: 2, rejected: 0 })
  })

  it("Excel's sep= line names the delimiter", () => {
    expect(CsvDialect.sepLineOf("sep=;")).toBe(";")
    expect(CsvDialect.sepLineOf("\"sep=|\"")).toBe("|")
    expect(CsvDialect.sepLineOf("SEP=\t")).toBe("\t")
    expect(CsvDialect.sepLineOf("separator")).toBeUndefined()
  })

  it("text in Windows-1252 is told from UTF-8 by its first non-ASCII byte", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", minLength: 1 }), fc.boolean(), (text, final) => {
        const bytes = Buffer.from(text, "utf8")
        const at = bytes.findIndex((byte) => byte >= 0x80)
        fc.pre(at >= 0)
        expect(CsvDialect.judge(bytes.subarray(at), final)).toBe("utf-8")
      })
    )
    fc.assert(
      fc.property(fc.constantFrom("é", "ü", "ñ", "£", "€", "Ø"), fc.stringMatching(/^[a-z ,]{1,5}$/), (letter, rest) => {
        expect(CsvDialect.judge(iconv.encode(letter + rest, "windows-1252"), true)).toBe("windows-1252")
      })
    )
    expect(CsvDialect.judge(Buffer.from([0xc3]), false)).toBeUndefined()
  })
})

describe("cells", () => {
  it("a cell reads the same as its copy in a rejects file, so a rejects file re-imports as the original", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("'", "=", "+", "-", "@", "\t", "\r", "\n", " ", "a") }), (text) => {
        expect(RowCells.cell([spreadsheet.neutralizeRaw(text)], 0)).toBe(RowCells.cell([text], 0))
      })
    )
  })
})

describe("reject messages", () => {
  const columns = Columns.match(["phone"])
  const messageOf = (number: string, defaultCountry?: string) => {
    const read = Result.isSuccess(columns) ? ContactRows.read([number], { columns: columns.success, defaultCountry, tags: [] }) : undefined
    return read?._tag === "Reject" ? `${read.reason}: ${read.message}` : JSON.stringify(read)
  }

  it("an unknown country says to add a country code only to a number written without one", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("+999 1234567", "00999 1234567", "tel:+999-1234567", "(+999) 123 4567", "+0 7400 123456"),
        fc.constantFrom(undefined, "GB"),
        (number, defaultCountry) => {
          const message = messageOf(number, defaultCountry)
          expect(message).toMatch(/^unknown-country: /)
          expect(message).toContain("calling code")
          expect(message).not.toContain("write it with +country code")
        }
      )
    )
    expect(messageOf("07400 123456")).toMatch(/^unknown-country: .*write it with \+country code/)
  })
})

describe("header matching", () => {
  it("a country cell that says there is no value (N/A, #N/A) is a blank one: the next country column, else the default; a placeholder is no country", async () => {
    const [summary, msisdns] = await run(Effect.gen(function*() {
      const summary = yield* importText(
        "Name,Mobile Phone,Business Country/Region,Home Country/Region\nAnn,07400 123456,N/A,\nBob,(201) 555-0123,#N/A,United States\n" +
          "Cy,(347) 496-3719,-,\nDi,+44 7400 123458,Unknown,\n"
      )
      return [summary, (yield* allContacts).map((c) => c.msisdn)] as const
    }))
    // Beside `-`, a national number is refused (read in the default country, a US number became +44 3474 963719).
    expect(summary).toMatchObject({ created: 3, rejected: 1, reasons: { "bad-country": 1 } })
    expect(msisdns).toEqual(["12015550123", "447400123456", "447400123458"])
  })

  it("a consent column that does not say yes (Shopify's Accepts SMS Marketing) creates the contact INVITED; a held one keeps its status", async () => {
    const [summary, contacts] = await run(Effect.gen(function*() {
      yield* importText("Phone\n07400 100009\n")
      const summary = yield* importText(
        "First Name,Phone,Accepts SMS Marketing\nAnn,07400 100001,yes\nBob,07400 100002,no\nCy,07400 100003,\nDi,07400 100004,pending\nEd,07400 100009,no\n",
        { defaultCountry: "GB" }
      )
      return [summary, (yield* allContacts).map((c) => [c.first_name || c.msisdn, c.status])] as const
    }))
    expect(summary).toMatchObject({ created: 4, updated: 1, rejected: 0, columns: { sms_consent: "Accepts SMS Marketing" }, notes: { "no-sms-consent": 3 } })
    expect(Object.fromEntries(contacts)).toEqual({ Ann: "SUBSCRIBED", Bob: "INVITED", Cy: "SUBSCRIBED", Di: "INVITED", Ed: "SUBSCRIBED" })
  })

  it("Google Contacts' groups are tags, its own (* myContacts, * starred) are not", async () => {
    const [summary, tags] = await run(Effect.gen(function*() {
      const summary = yield* importText("Name,Phone 1 - Value,Group Membership\nAnn,07400 123456,* myContacts ::: Friends ::: * starred ::: VIP\n")
      return [summary, (yield* allContacts).map((c) => c.tags)] as const
    }))
    expect(summary).toMatchObject({ created: 1, columns: { tags: "Group Membership" } })
    expect(tags).toEqual([["Friends", "VIP"]])
    // Only Google's own groups are dropped, and only ` ::: ` splits.
    expect(ContactRows.splitTags("* VIP, * Tier 1|ratio 1:::2")).toEqual(["* VIP", "* Tier 1", "ratio 1:::2"])
  })

  it("a national number beside a country column named by its words is read in that country, not the default", async () => {
    const summary = await run(Effect.gen(function*() {
      const summary = yield* importText("First Name,Mobile,Mailing Country\nAnn,(201) 266-4054,United States\n")
      return [summary, (yield* allContacts).map((c) => c.msisdn)] as const
    }))
    expect(summary).toMatchObject([{ created: 1, columns: { country: "Mailing Country" }, unknown_columns: [] }, ["12012664054"]])
  })

  it("a status column is read only in an smsbook export (with its monitoring column) or when --map names it", async () => {
    // A booking's `Cancelled` is no opt-out: another program's Status column is listed as not read.
    const booking = await run(importLines(["Name,Mobile,Status", "Bob,+447400000022,Cancelled"]))
    expect(booking).toMatchObject({ created: 1, opted_out_by_file: 0, unknown_columns: ["Status"] })
    expect(booking.columns).not.toHaveProperty("status")
    // Nor with a Monitoring column of its own: an export has its msisdn, status and monitoring columns.
    const monitored = await run(importLines(["Name,Mobile,Status,Monitoring", "Bob,+447400000022,Cancelled,yes"]))
    expect(monitored).toMatchObject({ created: 1, opted_out_by_file: 0, unknown_columns: ["Status", "Monitoring"] })
    const mapped = await run(Import.run(chunksOf(new TextEncoder().encode("Name,Mobile,SMS\nBob,+447400000022,unsubscribed")), {
      map: ["SMS=status"]
    }))
    expect(mapped).toMatchObject({ created: 1, opted_out_by_file: 1, columns: { status: "SMS" } })
    const exported = await run(importLines(["msisdn,first_name,status,monitoring", "447400000022,Bob,CANCELLED,false", "447400000023,Eve,SUBSCRIBED,false"]))
    expect(exported).toMatchObject({ created: 2, opted_out_by_file: 1, unknown_columns: [], columns: { status: "status", monitoring: "monitoring" } })
    for (const [status, optOut] of [["CANCELLED", true], ["Canceled", true], ["opted out", true], ["Unsubscribed", true], ["STOP", true], ["unsubscribe", true], ["Do Not Text", true], ["DNC", true], ["CONFIRMED", false], ["Yes", false], ["", false]] as const) {
      expect([status, ContactRows.isOptOut(status)]).toEqual([status, optOut])
    }
  })

  it("an export's status and monitoring are the state of the contacts it creates; a contact the book holds keeps its own", async () => {
    const lines = [
      "msisdn,first_name,status,monitoring",
      "447400000041,Ann,INVITED,true",
      "447400000042,Bea,confirmed,FALSE",
      "447400000043,Cy,SUBSCRIBED,yes",
      // Not a status an import gives: the contact starts SUBSCRIBED.
      "447400000044,Dee,PENDING,",
      "447400000045,Eve,CANCELLED,true",
      "447400000046,Fay,INVITED,sometimes",
      // Held before the import, SUBSCRIBED and not monitoring: unchanged by its row.
      "447400000047,Gus,INVITED,true",
      // A later row of a number changes no state its first row gave.
      "447400000041,Ann,CONFIRMED,false"
    ]
    const rejects = tempFile("states.csv")
    const [summary, contacts] = await run(Effect.gen(function*() {
      yield* ContactBook.createContact("447400000047", { first_name: "Gus" })
      const summary = yield* Import.run(chunksOf(new TextEncoder().encode(lines.join("\n"))), { rejectsPath: rejects })
      return [summary, yield* allContacts] as const
    }).pipe(Effect.scoped))
    expect(summary).toMatchObject({ read: 8, created: 5, unchanged: 2, rejected: 1, duplicates: 1, reasons: { "invalid-monitoring": 1 } })
    expect(contacts.map((c) => [c.first_name, c.status, c.monitoring])).toEqual([
      ["Ann", "INVITED", true],
      ["Bea", "CONFIRMED", false],
      ["Cy", "SUBSCRIBED", true],
      ["Dee", "SUBSCRIBED", false],
      ["Eve", "CANCELLED", true],
      ["Gus", "SUBSCRIBED", false]
    ])
    const refused: ReadonlyArray<{ line: string; reason: string; message: string }> = parse(fs.readFileSync(rejects, "utf8"), { bom: true, columns: true })
    expect(refused.map((r) => [r.line, r.reason, r.message])).toEqual([
      ["7", "invalid-monitoring", "monitoring \"sometimes\": write true or false (yes/no, 1/0 read too)"]
    ])
  })

  it("a suppression list (suppressions export) is refused as a contact file, unless --map names the number's column", async () => {
    const text = ["Name;suppressed_msisdn;Phone", "Ann;447400100001;447400100002"]
    const refused = await run(Effect.flip(importLines(text).pipe(Effect.scoped)))
    expect(refused).toMatchObject({ _tag: "InvalidField", field: "header", value: "Name,suppressed_msisdn,Phone" })
    for (const map of ["suppressed_msisdn=ignore", "Phone=msisdn"]) {
      const imported = await run(Import.run(chunksOf(new TextEncoder().encode(text.join("\n"))), { map: [map] }).pipe(Effect.scoped))
      expect([map, imported.created, imported.columns.msisdn]).toEqual([map, 1, "Phone"])
    }
  })

  it("a row refused for its name or a tag, whose status says it opted out, still opts its number out (its number read)", async () => {
    const longTag = "t".repeat(300)
    const lines = [
      "msisdn,first_name,tags,status,monitoring",
      "447400000031,Ann\uFFFD,news,CANCELLED,false",
      `447400000032,Bob,${longTag},Unsubscribed,false`,
      "447400000033,Cy\uFFFD,news,SUBSCRIBED,false",
      "4474000,Dee\uFFFD,news,CANCELLED,false",
      "447400000035,Eve,news,CANCELLED,false"
    ]
    const rejects = tempFile("refused-opt-outs.csv")
    const [summary, contacts, suppressed] = await run(Effect.gen(function*() {
      const summary = yield* Import.run(chunksOf(new TextEncoder().encode(lines.join("\n"))), { rejectsPath: rejects })
      const store = yield* ContactStore.ContactStore
      return [summary, yield* allContacts, yield* store.listSuppressed({ limit: 100 })] as const
    }).pipe(Effect.scoped))
    expect(summary).toMatchObject({ read: 5, created: 1, rejected: 4, reasons: { "bad-encoding": 3, "tag-too-long": 1 } })
    expect(contacts.map((c) => [c.msisdn, c.status])).toEqual([["447400000035", "CANCELLED"]])
    // Ann's and Bob's opt-outs are kept; Cy did not opt out, and Dee's number is no number.
    expect(suppressed).toEqual(["447400000031", "447400000032", "447400000035"])
    const refused: ReadonlyArray<{ line: string; message: string }> = parse(fs.readFileSync(rejects, "utf8"), { bom: true, columns: true })
    const messages = refused.map((r) => [r.line, r.message.endsWith("its opt-out is kept all the same (the number is suppressed)")])
    expect(messages).toEqual([["2", true], ["3", true], ["4", false], ["5", false]])
  })

  it("a row's number comes from the mobile column, else the next phone column that holds a valid one, counted", async () => {
    const summary = await run(importLines([
      "Phone,Mobile Phone,Country",
      "020 7946 0018,07400 123401,GB",
      "020 7946 0019,,GB",
      "020 7946 0020,O7400,UK",
      ",07400 123402,United Kingdom",
      "bad,worse,GB"
    ]))
    expect(summary).toMatchObject({
      read: 5,
      created: 4,
      rejected: 1,
      reasons: { "not-a-number": 1 },
      notes: { "phone-from-fallback-column": 2 },
      columns: { msisdn: "Mobile Phone", country: "Country" },
      fallback_columns: ["Phone"],
      unknown_columns: []
    })
  })

  it.each([false, true])("a row's country is the first country column with a cell: an address book's export (worker %s)", async (worker) => {
    // Outlook writes a Business Country/Region before the Home one; a personal contact has only the latter.
    const lines = [
      "First Name,Mobile Phone,Business Country/Region,Home Country/Region",
      "Ann,(201) 266-4054,,United States",
      "Bea,07400 123431,United Kingdom,United States",
      "Cy,07400 123432,,"
    ]
    const [summary, contacts] = await run(Effect.gen(function*() {
      const summary = yield* Import.run(chunksOf(new TextEncoder().encode(lines.join("\n"))), { defaultCountry: "GB", worker })
      return [summary, yield* allContacts] as const
    }))
    expect(summary).toMatchObject({
      created: 3,
      columns: { country: "Business Country/Region" },
      country_fallback_columns: ["Home Country/Region"],
      unknown_columns: []
    })
    expect(contacts.map((contact) => contact.msisdn).toSorted()).toEqual(["12012664054", "447400123431", "447400123432"])
    expect(Format.importSummary("f.csv", summary).find((line) => line.startsWith("  columns: "))).toContain(
      "country ← Business Country/Region (then Home Country/Region)"
    )
    // A column that may be a state's is never a fallback, nor the country beside one that surely is.
    for (const sure of ["Country", "Nation", "Pays", "Dial Code"]) {
      const states = Result.getOrThrow(Columns.match(["Phone", "Notes", "Region", sure, "ISO", "Email"]))
      expect(states, sure).toMatchObject({ index: { msisdn: 0, country: 3 }, countryFallbacks: [], unknown: ["Notes", "Region", "ISO", "Email"] })
    }
    expect(Result.getOrThrow(Columns.match(["Phone", "Land"])).index).toEqual({ msisdn: 0, country: 1 })
    // A region is never the country: Mailchimp's `REGION` holds US states (`IN` read as India).
    expect(Result.getOrThrow(Columns.match(["Phone", "Region"]))).toMatchObject({ index: { msisdn: 0 }, unknown: ["Region"] })
    // A country column chosen by --map is the only one read.
    const mapped = Result.getOrThrow(Columns.match(lines[0]?.split(",") ?? [], ["Home Country/Region=country"]))
    expect(mapped).toMatchObject({ index: { country: 3 }, countryFallbacks: [], unknown: ["Business Country/Region"] })
  })

  it("replaces control characters in names and tags by spaces, and counts the rows", async () => {
    const [summary, contacts] = await run(Effect.gen(function*() {
      const summary = yield* importLines([
        "msisdn,first_name,last_name,tags",
        "447400123421,A\u0000nn,Lee,news",
        "447400123422,\u001b[31mBob,Ray,vip\u0007",
        "447400123423,Cy,Dee,news"
      ])
      const contacts = yield* Effect.forEach(["447400123421", "447400123422", "447400123423"], (msisdn) => ContactBook.getContact(msisdn))
      return [summary, contacts] as const
    }))
    expect(summary).toMatchObject({ read: 3, created: 3, notes: { "control-characters-replaced": 2 } })
    expect(contacts.map((c) => [c.first_name, c.tags])).toEqual([["A nn", ["news"]], ["[31mBob", ["vip"]], ["Cy", ["news"]]])
  })

  it("counts every note of the numbers it keeps, and a re-import changes nothing", async () => {
    const file = ["phone,country", "7400 123411,GB", "+44 7400 123412,Narnia", "020 7946 0018 ext. 123,GB", "1-800-FLOWERS,US", "491779486853,DE"]
    const [first, second] = await run(Effect.all([importLines(file), importLines(file)]))
    expect(first).toMatchObject({
      read: 5,
      created: 5,
      rejected: 0,
      notes: {
        "trunk-prefix-added": 1,
        "country-ignored": 1,
        "extension-dropped": 1,
        "letters-converted": 1,
        "ambiguous": 1,
        "phone-from-fallback-column": 0
      }
    })
    expect(second).toMatchObject({ read: 5, unchanged: 5, created: 0, updated: 0 })
  })

})

describe("seen numbers", () => {
  it("behaves as a Set of MSISDNs, across growth and clearing, and gives its numbers back as written, ascending", () => {
    const step = fc.oneof(
      { weight: 40, arbitrary: fc.stringMatching(/^[1-9][0-9]{5,14}$/) },
      { weight: 1, arbitrary: fc.constant("clear" as const) }
    )
    fc.assert(
      fc.property(fc.array(step, { maxLength: 400 }), (steps) => {
        const set = MsisdnSet.make(4)
        const reference = new Set<string>()
        for (const number of steps) {
          if (number === "clear") {
            set.clear()
            reference.clear()
            continue
          }
          expect(set.addSeen(number)).toBe(reference.has(number))
          reference.add(number)
        }
        expect(set.size()).toBe(reference.size)
        expect(Array.from(set.sorted(), String)).toEqual([...reference].map(Number).sort((a, b) => a - b).map(String))
      })
    )
  })
})

describe("--max-rejects", () => {
  it("reads N and N%, refuses anything else", () => {
    expect(Result.getOrUndefined(Import.parseMaxRejects("10"))).toEqual({ _tag: "Count", count: 10 })
    expect(Result.getOrUndefined(Import.parseMaxRejects("0.5%"))).toEqual({ _tag: "Percent", percent: 0.5 })
    for (const bad of ["", "-1", "ten", "101%", "5 rows"]) expect(Result.isFailure(Import.parseMaxRejects(bad))).toBe(true)
  })

  it("is exceeded only strictly above the limit", () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(1000), fc.nat(1000), (rejected, extra, limit) => {
        const read = rejected + extra
        expect(Import.exceeds({ _tag: "Count", count: limit }, rejected, read)).toBe(rejected > limit)
        expect(Import.exceeds({ _tag: "Percent", percent: 100 }, rejected, read)).toBe(false)
      })
    )
  })
})
