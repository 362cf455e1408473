/**
 * The suppression list as files: its numbers exported (every opt-out, whether or not a contact still has it), and a
 * file of numbers loaded into it (another book's list, a do-not-contact list), each number opted out. With
 * `contacts export` and `import`, this is what moves a whole book: the opt-outs of deleted contacts too.
 */
import { ContactStore, InvalidField, InvalidParameter, Msisdn, type StoreFailure } from "@smsbook/core"
import { Clock, Data, Effect, type Scope } from "effect"
import type { FileFailure } from "../CliErrors.ts"
import * as Columns from "../internal/csv/columns.ts"
import * as DefaultCountry from "../internal/defaultCountry.ts"
import * as InputFile from "../internal/inputFile.ts"
import * as Interruption from "../internal/interruption.ts"
import type * as ContactRows from "../internal/contactRows.ts"
import * as MsisdnSet from "../internal/msisdnSet.ts"
import * as PagedExport from "../internal/pagedExport.ts"
import * as RejectsFile from "../internal/rejectsFile.ts"

export type Format = PagedExport.Format

export interface ExportOptions {
  readonly format: Format
  /** CSV only: a UTF-8 byte order mark and CRLF line ends, so Excel reads accents and emoji right. */
  readonly excel: boolean
  /** Numbers read per store round trip. */
  readonly pageSize?: number
}

export interface Exported {
  readonly rows: number
  readonly format: Format
  readonly out: string
}

/**
 * A number as the export writes it: the MSISDN and its calling code, which the load reads as the row's country, so
 * the MSISDN's bare digits read back as that country's whatever `--default-country` is given (without it, an
 * Icelandic mobile, `3546111234`, read back as a US number under `--default-country US`).
 */
const entry = (msisdn: string) => ({ msisdn, country_code: Msisdn.split(msisdn as Msisdn.Msisdn).country_code })

/**
 * Writes every number of the suppression list to `out` (`-`: stdout), in msisdn order, a keyset page at a time
 * (`internal/pagedExport.ts`). The CSV's columns, `suppressed_msisdn` and `country_code`, are what `load` reads;
 * `import` refuses the file (`Columns.match`).
 */
export const write = Effect.fnUntraced(function*(out: string, options: ExportOptions) {
  const store = yield* ContactStore.ContactStore
  const rows = yield* PagedExport.write(out, { ...options, pageSize: Math.max(1, options.pageSize ?? 10_000) }, {
    page: (after: string | undefined, limit) => store.listSuppressed(after === undefined ? { limit } : { after, limit }),
    columns: [Columns.suppressedColumn, "country_code"],
    row: (msisdn) => {
      const { country_code } = entry(msisdn)
      return { [Columns.suppressedColumn]: msisdn, country_code }
    },
    json: entry
  })
  return { rows, format: options.format, out } satisfies Exported
})

export interface LoadOptions {
  /** Name of the input in messages (a path, or `-` for stdin). */
  readonly source?: string | undefined
  /** Country of numbers written nationally when a row has no country cell. */
  readonly defaultCountry?: string | undefined
  /** `Column Name=field` overrides of the header matching (only `msisdn` and `country` are read). */
  readonly map?: ReadonlyArray<string> | undefined
  /** Read and report everything, and change nothing. */
  readonly dryRun?: boolean | undefined
  /** Forced input encoding (iconv-lite name); detected when absent. */
  readonly encoding?: string | undefined
  /** Where rows whose number cannot be read are written; `undefined`: nowhere. */
  readonly rejectsPath?: string | undefined
}

export interface Loaded {
  /** Data rows read (blank rows are not counted): numbers + duplicates + rejected. */
  readonly read: number
  /** Distinct numbers read. */
  readonly numbers: number
  /** Of those, the numbers that were not on the list before. */
  readonly added: number
  /** Of those, the numbers already on it. */
  readonly already_suppressed: number
  /** Stored contacts of those numbers that were not CANCELLED before, and now are. */
  readonly contacts_opted_out: number
  /** Rows of a number an earlier row of the file had. */
  readonly duplicates: number
  /** Rows whose number cannot be read: in the rejects file, with their line, reason and message. */
  readonly rejected: number
  readonly reasons: { readonly [R in ContactRows.Reason]?: number }
  readonly rejects_file: string | null
  /** Which column the number (and the country) was read from. */
  readonly columns: { readonly msisdn?: string; readonly country?: string }
  /** The file's columns no number or country is read from, in file order (a list's dates, notes, names). */
  readonly columns_not_read: ReadonlyArray<string>
  readonly encoding: string
  readonly delimiter: string
  readonly elapsed_ms: number
  readonly dry_run: boolean
  /** Whether the book now holds the file's opt-outs (false for a dry run). */
  readonly committed: boolean
}

/** Numbers opted out per store statement. */
const chunk = 10_000

/** Ends a dry run's transaction without its writes. Never leaves this module. */
class DryRun extends Data.TaggedError("DryRun")<{ readonly placed: string | undefined }> {}

/** What a stop before the commit says: nothing changed, and running it again is safe. */
const rolledBack = "nothing was loaded (the file is one transaction, and it was rolled back): running the same command again is safe"

/** What a stop after the commit says: the list holds the file's numbers; only the summary may be cut short. */
const loaded = "the numbers were loaded (committed); only the summary may be cut short"

/** What a stop while the load commits says: either may be true, and running it again is safe either way. */
const committing = "the load was committing when it stopped, so it may have been committed: " +
  "run the same command again (numbers already loaded are then found already suppressed)"

/** The fields a suppression file's `--map` may name: its number, its country, or a column to leave alone. */
const mappable: ReadonlySet<string> = new Set(["msisdn", "country", "ignore"])

/**
 * Refuses a `--map` of a field a suppression list does not read, and a file with a status column that `--map` does
 * not leave alone: every row of a suppression list is an opt-out, so a file that says which rows are (a contacts
 * export, another program's list with `Removed` rows) would opt out the rows it keeps subscribed.
 */
const checkColumns = (header: ReadonlyArray<string>, mappings: ReadonlyArray<string>): Effect.Effect<void, InvalidField | InvalidParameter> =>
  Effect.gen(function*() {
    const ignored = new Set<string>()
    for (const text of mappings) {
      const { column, field } = yield* Effect.fromResult(Columns.parseMapping(text))
      if (!mappable.has(field)) {
        return yield* new InvalidParameter({
          parameter: "--map",
          value: text,
          reason: `a suppression list reads only its numbers: map a column to msisdn, country or ignore, not ${field}`
        })
      }
      if (field === "ignore") ignored.add(Columns.key(column))
    }
    const status = header.find((name) => Columns.fieldOf(name) === "status" && !ignored.has(Columns.key(name)))
    if (status === undefined) return
    return yield* new InvalidField({
      field: "status",
      value: status,
      reason: `every row of a suppression list is an opt-out, and this file has a ${JSON.stringify(status)} column that may say otherwise: ` +
        `load a contacts export with \`smsbook import\` (it opts out only the rows whose status says so); for another list, ` +
        `keep only the opted-out rows, or load every row with --map "${status}=ignore"`
    })
  })

/**
 * The columns a suppression file is read from: the number's (and its fallback phone columns) and the country's, as an
 * import matches them; names, tags and status are not read.
 */
const numberColumns = (columns: Columns.Columns): Columns.Columns => ({
  ...columns,
  index: Object.fromEntries(Object.entries(columns.index).filter(([field]) => field === "msisdn" || field === "country"))
})

/**
 * Loads a file of numbers into the suppression list: each number read (by the import's rules, with the row's country
 * or the default one) is opted out, as an inbound STOP would opt it out: on the list, and its contact CANCELLED where
 * one is stored. No contact is created. The file is one transaction: a stopped run changes nothing, a re-run is safe
 * (it finds the numbers already suppressed). A row whose number cannot be read goes to the rejects file; the others
 * are loaded all the same (leaving out a readable opt-out because another row is bad would be the worse failure).
 */
export const load = Effect.fn("Suppressions.load")(
  function*(input: AsyncIterable<Uint8Array>, options: LoadOptions): Effect.fn.Return<
    Loaded,
    InvalidField | InvalidParameter | FileFailure | StoreFailure,
    ContactStore.ContactStore | Scope.Scope
  > {
    const store = yield* ContactStore.ContactStore
    yield* Effect.sync(() => Interruption.keep(rolledBack))
    const started = yield* Clock.currentTimeMillis
    const source = options.source ?? "-"
    const dryRun = options.dryRun === true
    const defaultCountry = options.defaultCountry === undefined
      ? undefined
      : yield* Effect.fromResult(DefaultCountry.check(options.defaultCountry))
    const rejectsFile = options.rejectsPath === undefined ? undefined : yield* RejectsFile.openFlag(options.rejectsPath, { dryRun })
    const { header, next, reader } = yield* InputFile.rows(input, {
      source,
      nothing: "nothing was loaded",
      columns: "msisdn…",
      encoding: options.encoding,
      batchSize: 1000,
      worker: false
    })
    yield* checkColumns(header, options.map ?? [])
    // Its own export's number column (`suppressed_msisdn`) is a phone column here.
    const columns = numberColumns(yield* Effect.fromResult(Columns.match(header, options.map, { suppressionList: true })))
    reader.start({ columns, defaultCountry, tags: [], numbersOnly: true })
    const rejects = rejectsFile?.writer(columns.header, reader.delimiter)

    const numbers = MsisdnSet.make(16)
    const tally = { read: 0, duplicates: 0, rejected: 0 }
    const reasons: { [R in ContactRows.Reason]?: number } = {}
    for (;;) {
      const rows = yield* next
      if (rows.length === 0) break
      const rejected: Array<RejectsFile.Rejected> = []
      for (const row of rows) {
        const read = row.read
        tally.read++
        if (read._tag === "Reject") {
          reasons[read.reason] = (reasons[read.reason] ?? 0) + 1
          rejected.push({ line: row.line, reason: read.reason, message: read.message, fields: row.fields })
        } else if (numbers.addSeen(read.candidate.msisdn)) tally.duplicates++
      }
      tally.rejected += rejected.length
      if (rejects !== undefined) yield* rejects.write(rejected)
    }

    const counts = { added: 0, already_suppressed: 0, contacts_opted_out: 0 }
    const apply = Effect.gen(function*() {
      for (const msisdns of MsisdnSet.sortedChunks(numbers, chunk)) {
        const already = (yield* store.suppressed(msisdns)).size
        counts.already_suppressed += already
        counts.added += msisdns.length - already
        counts.contacts_opted_out += yield* store.cancel(msisdns)
      }
      const placed = rejects === undefined ? undefined : yield* rejects.finish
      if (numbers.size() === 0 && tally.read > 0) {
        // Not one number read: the wrong column, or national numbers without their country. A job must not say "loaded".
        const why = Object.entries(reasons).map(([reason, count]) => `${count} ${reason}`).join(", ")
        return yield* new InvalidParameter({
          parameter: "FILE",
          value: source,
          reason: `no row of it holds a number that reads (${why}), so nothing was loaded${placed === undefined ? "" : `; the rows are in ${placed}`}`
        })
      }
      if (dryRun) return yield* new DryRun({ placed })
      // A stop from here on may come in the commit: it must not say "nothing was loaded".
      yield* Effect.sync(() => Interruption.keep(committing))
      return placed
    })
    const { committed, placed } = yield* store.transaction(apply).pipe(
      Effect.map((placed) => ({ committed: true, placed })),
      Effect.catchTag("DryRun", ({ placed }) => Effect.succeed({ committed: false, placed }))
    )
    yield* Effect.sync(() => Interruption.keep(committed ? loaded : rolledBack))
    const { country, msisdn } = columns.index
    const readFrom = new Set([msisdn, country, ...columns.fallbacks, ...columns.countryFallbacks])
    return {
      read: tally.read,
      numbers: numbers.size(),
      ...counts,
      duplicates: tally.duplicates,
      rejected: tally.rejected,
      reasons,
      rejects_file: placed ?? null,
      columns: {
        ...(msisdn === undefined ? {} : { msisdn: columns.header[msisdn] ?? "" }),
        ...(country === undefined ? {} : { country: columns.header[country] ?? "" })
      },
      columns_not_read: columns.header.flatMap((name, at) => readFrom.has(at) ? [] : [name.trim() === "" ? `(column ${at + 1})` : name]),
      encoding: reader.encoding(),
      delimiter: reader.delimiter,
      elapsed_ms: (yield* Clock.currentTimeMillis) - started,
      dry_run: dryRun,
      committed
    } satisfies Loaded
  },
  Effect.scoped
)

/** What `add` did to one number. */
export interface Added {
  readonly msisdn: string
  /** Whether the number was on the list already. */
  readonly already_suppressed: boolean
  /** Whether a stored contact of the number was moved to CANCELLED. */
  readonly contact_opted_out: boolean
}

/**
 * Opts out one number, whether or not a contact has it (a person who asks to be left alone need not be in the book):
 * on the suppression list, and its contact CANCELLED where one is stored.
 */
export const add = Effect.fn("Suppressions.add")(function*(msisdn: Msisdn.Msisdn) {
  const store = yield* ContactStore.ContactStore
  return yield* store.transaction(Effect.gen(function*() {
    const already = (yield* store.suppressed([msisdn])).size > 0
    const moved = yield* store.cancel([msisdn])
    return { msisdn, already_suppressed: already, contact_opted_out: moved > 0 } satisfies Added
  }))
})
