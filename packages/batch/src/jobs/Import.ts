/**
 * The contact import job: the bytes of a CSV file in, contacts upserted by msisdn in one store transaction, and a
 * summary accounting for every row (created, updated, unchanged or rejected; rejected rows go to a file).
 * Over 400 lines: the job is one transaction from the first byte to the commit, and its steps share that
 * transaction's state (the tally, the staging, the rejects file); split, each part would take all of it as arguments.
 */
import { Contact, ContactBook, ContactStore, InvalidField, InvalidParameter, Msisdn, type StoreFailure } from "@smsbook/core"
import { Clock, Data, Effect, Result, type Scope } from "effect"
import type { FileFailure } from "../CliErrors.ts"
import * as Columns from "../internal/csv/columns.ts"
import * as DefaultCountry from "../internal/defaultCountry.ts"
import * as InputFile from "../internal/inputFile.ts"
import * as Interruption from "../internal/interruption.ts"
import * as ContactRows from "../internal/contactRows.ts"
import * as MsisdnSet from "../internal/msisdnSet.ts"
import * as ReadRows from "../internal/readRows.ts"
import * as RejectsFile from "../internal/rejectsFile.ts"
import type * as RowBatches from "../internal/rowBatches.ts"

/** `--max-rejects`: a number of rows, or a percentage of the rows read. */
export type MaxRejects =
  | { readonly _tag: "Count"; readonly count: number }
  | { readonly _tag: "Percent"; readonly percent: number }

/** Reads `--max-rejects`: `N` (rows) or `N%` (of the rows read, 0 to 100, decimals allowed). */
export const parseMaxRejects = (text: string): Result.Result<MaxRejects, InvalidParameter> => {
  const trimmed = text.trim()
  if (/^[0-9]+$/.test(trimmed)) return Result.succeed({ _tag: "Count", count: Number(trimmed) })
  const percent = /^([0-9]+(?:\.[0-9]+)?)\s*%$/.exec(trimmed)
  if (percent !== null && Number(percent[1]) <= 100) return Result.succeed({ _tag: "Percent", percent: Number(percent[1]) })
  return Result.fail(
    new InvalidParameter({ parameter: "--max-rejects", value: text, reason: "must be a number of rows (10) or a percentage (0.5%)" })
  )
}

/** Whether `rejected` rows out of `read` are more than `max` allows (exactly the limit is allowed). */
export const exceeds = (max: MaxRejects, rejected: number, read: number): boolean =>
  max._tag === "Count" ? rejected > max.count : rejected * 100 > max.percent * read

/** The text of a limit, as the user wrote it. */
export const formatMaxRejects = (max: MaxRejects): string => max._tag === "Count" ? String(max.count) : `${max.percent}%`

export interface Options {
  /** Name of the input in messages (a path, or `-` for stdin). */
  readonly source?: string | undefined
  /** Country of national numbers when a row has no country cell: ISO 3166 code (`GB`) or calling code (`44`). */
  readonly defaultCountry?: string | undefined
  /** `Column Name=field` overrides of the header matching. */
  readonly map?: ReadonlyArray<string> | undefined
  /** Tags added to every row's own. */
  readonly tags?: ReadonlyArray<string> | undefined
  /** A blank name in the file erases the stored one. */
  readonly blankErases?: boolean | undefined
  /** Run everything, report, and roll back. */
  readonly dryRun?: boolean | undefined
  /** Over this, the import is rolled back and the summary says `max_rejects_exceeded`. */
  readonly maxRejects?: MaxRejects | undefined
  /** Forced input encoding (iconv-lite name); detected when absent. */
  readonly encoding?: string | undefined
  /** Where rejected rows are written; `undefined`: nowhere. Rules in `internal/rejectsFile.ts`. */
  readonly rejectsPath?: string | undefined
  /**
   * Rows per store round trip (default 250: with SQLite, as fast as 4000 and a third less peak memory, as fewer
   * rows outlive a young-generation collection).
   */
  readonly batchSize?: number | undefined
  /** Rows staged between merges, where the store imports set-based (default {@link defaultMergeEvery}). */
  readonly mergeEvery?: number | undefined
  /**
   * Parse and check the rows on a worker thread, beside the store's writes (default false; the command asks for it
   * when {@link worthAWorker} says the file is large enough). The results are the same either way.
   */
  readonly worker?: boolean | undefined
  /** Called after every batch (the command throttles and draws it). */
  readonly onProgress?: ((progress: Progress) => Effect.Effect<void>) | undefined
}

export interface Progress {
  readonly read: number
  readonly rejected: number
  readonly elapsed_ms: number
  /**
   * Bytes of the input these rows were read from, when that is not what was taken from the source: a worker thread
   * is handed the file megabytes ahead of its rows (a share of the file from the source's count would run ahead).
   */
  readonly input_bytes?: number
}

/** Whether an input of `bytes` (`undefined`: unknown, as a pipe's) is read on a worker thread: large files only. */
export const worthAWorker = ReadRows.worthAWorker

/**
 * V8's flag that turns pretenuring off, for a process that runs a large import (its command sets it: the flag is the
 * process's, the worker's too). A batch that outlives a young-generation collection (one waiting through a merge)
 * taught V8 that objects built where it was built live long, and it then built every later one in the old
 * generation: the main thread's heap grew to ~150 MB between full collections for ~35 MB alive. At 1M rows, without
 * it: peak RSS 375–384 MB instead of 425–475, and 3–4 CPU s less (docs/decisions.md). V8 reads it at each collection.
 */
export const noPretenuring = "--no-allocation-site-pretenuring"

/** Rows per store round trip unless `Options.batchSize` says otherwise. */
export const defaultBatchSize = 250

/**
 * Rows staged between two merges of a set-based import (stores that have one). Each merge touches leaves all over
 * the contacts index, so fewer, larger merges write each leaf fewer times: at 1M rows, merging every 200k rows took
 * 38 CPU s against 44 for every 25k (re-imports alike, 31 s); the staging held costs a few tens of MB.
 */
export const defaultMergeEvery = 200_000

/**
 * SQLite's page cache for an import, in KiB: 16 MiB. Its merges touch leaves all over the contacts B-tree, which
 * outgrows any cache, and the system's file cache serves what it misses. At 1M rows, in three paired runs, 64 MiB
 * peaked at 427–434 MB against 356–364, for a first import ~10 % faster and a re-import no faster (docs/decisions.md).
 */
export const cacheKiB = 16384

/** Numbers a file's status column opts out, per store statement. */
const optOutChunk = 10_000

/** The first opted-out numbers listed in a summary; the count covers them all. */
export const optedOutListLimit = 100

export interface Summary {
  /** Data rows read (blank rows are not counted): always created + updated + unchanged + rejected. */
  readonly read: number
  readonly created: number
  readonly updated: number
  readonly unchanged: number
  readonly rejected: number
  /** Rows whose number came earlier in the file: merged into it (their tags added), counted in the above too. */
  readonly duplicates: number
  /** Rows of CANCELLED contacts: never resubscribed by an import. */
  readonly opted_out: number
  /** New contacts whose number was on the suppression list (an earlier opt-out): created CANCELLED. */
  readonly suppressed: number
  /**
   * Numbers the file's status column says opted out (`CANCELLED`, as `contacts export` writes it; `Unsubscribed`…)
   * that were not CANCELLED before: opted out by this import, suppressed, never sent to. An import subscribes nobody.
   */
  readonly opted_out_by_file: number
  /** The first {@link optedOutListLimit} of those numbers. */
  readonly opted_out_msisdns: ReadonlyArray<string>
  /** Whether `opted_out_msisdns` holds every opted-out number of the file (`opted_out` counts rows, not numbers). */
  readonly opted_out_msisdns_complete: boolean
  /** Accepted rows per reading of the number (see `Msisdn.Rule`). */
  readonly rules: { readonly [R in Msisdn.Rule]: number }
  /**
   * Accepted rows per note (see `Msisdn.Note`): repairs and doubts, every one counted so a file's damage stays
   * visible (`trunk-prefix-added` may be a spreadsheet's lost zeros), `phone-from-fallback-column` too.
   */
  readonly notes: { readonly [N in ContactRows.Note]: number }
  /** Rejected rows per reason. */
  readonly reasons: { readonly [R in ContactRows.Reason]?: number }
  readonly rejects_file: string | null
  /** Columns nothing reads, each once. */
  readonly unknown_columns: ReadonlyArray<string>
  /** Which column each field was read from. */
  readonly columns: { readonly [F in Columns.Field]?: string }
  /** Phone columns read, in order, where the number's column is empty or invalid. */
  readonly fallback_columns: ReadonlyArray<string>
  /** The country columns read where the country's column is blank, in order. */
  readonly country_fallback_columns: ReadonlyArray<string>
  readonly encoding: string
  readonly delimiter: string
  readonly elapsed_ms: number
  readonly rows_per_second: number
  readonly dry_run: boolean
  /** Whether the store now holds the file's changes (false for a dry run and over `--max-rejects`). */
  readonly committed: boolean
  readonly max_rejects_exceeded: boolean
}

/** What a run stopped (or failed) before its import commits says it kept. */
export const rolledBack = "nothing was imported (the import is one transaction, and it was rolled back): " +
  "running the same command again is safe"

/** What a run stopped after its import committed says it kept (its output, a summary or rejects, may be cut). */
export const imported = "the import was committed; only what it was still writing out (its summary, its rejects) may be cut short"

/** What a run stopped (or failed) while its import commits says it kept: either is true, and a re-run is safe either way. */
export const committing = "the import was committing when it stopped, so it may have been committed: " +
  "run the same command again (rows already committed are then found unchanged)"

/** Ends the transaction without its writes: a dry run, or too many rejects. Never leaves this module. */
class Rollback extends Data.TaggedError("Rollback")<{ readonly exceeded: boolean; readonly placed: string | undefined }> {}

/** A later row of a number: its names blanked, so that it only adds tags (a blank never erases what is stored). */
const asRepeat = (row: Omit<ContactBook.Candidate, "first_name" | "last_name">): ContactBook.Candidate => ({
  msisdn: row.msisdn,
  country_code: row.country_code,
  phone_number: row.phone_number,
  first_name: "",
  last_name: "",
  tags: row.tags
})

/**
 * Imports a contact file. Every data row lands in exactly one of created, updated, unchanged or rejected, so `read` is
 * their sum. The whole file is one store transaction, so an interrupted import leaves the store as it was, and a re-run
 * of the same file is all unchanged: the first row of a number decides its names and later rows of it only add their
 * tags (a later row winning would make every re-run update the number twice). A dry run, and a run over `maxRejects`,
 * roll back and report exactly what a real run would have done; the rejects file is written either way, so problems can
 * be previewed. The rejects file is created before anything is read (a path that cannot be written is an
 * `InvalidParameter` naming `--rejects`) and put in place inside the transaction, before the commit, so an import is
 * never committed without its rejects file. Memory stays flat where the store imports set-based: the numbers seen since
 * the last merge are checked here, the earlier ones by the store's merge (elsewhere the duplicate check keeps 13–22
 * bytes per distinct number of the file), but for the numbers an export's status column opts out, kept to the end in
 * the same compact form.
 */
export const run = Effect.fn("Import.run")(
  function*(input: AsyncIterable<Uint8Array>, options: Options): Effect.fn.Return<
    Summary,
    InvalidField | InvalidParameter | FileFailure | StoreFailure,
    ContactStore.ContactStore | Scope.Scope
  > {
    const store = yield* ContactStore.ContactStore
    yield* Effect.sync(() => Interruption.keep(rolledBack))
    const started = yield* Clock.currentTimeMillis
    const source = options.source ?? "-"
    const defaultCountry = options.defaultCountry === undefined
      ? undefined
      : yield* Effect.fromResult(DefaultCountry.check(options.defaultCountry))
    yield* Effect.fromResult(Contact.checkTags(options.tags ?? [])).pipe(
      Effect.mapError(({ reason, value }) => new InvalidParameter({ parameter: "--tags", value, reason }))
    )
    const batchSize = options.batchSize ?? defaultBatchSize
    const dryRun = options.dryRun === true
    // Opened before anything is read or written, so a rejects path that cannot be written fails first.
    const rejectsFile = options.rejectsPath === undefined ? undefined : yield* RejectsFile.openFlag(options.rejectsPath, { dryRun })
    const { header, next, reader } = yield* InputFile.rows(input, {
      source,
      nothing: "nothing was imported",
      columns: "msisdn, first_name, last_name, tags…",
      encoding: options.encoding,
      batchSize,
      worker: options.worker ?? false
    })
    const columns = yield* Effect.fromResult(Columns.match(header, options.map))
    reader.start({ columns, defaultCountry, tags: options.tags ?? [] })
    const rejects = rejectsFile?.writer(columns.header, reader.delimiter)

    const tally = { read: 0, created: 0, updated: 0, unchanged: 0, rejected: 0, duplicates: 0, opted_out: 0, suppressed: 0, opted_out_by_file: 0 }
    // The numbers of rows whose status says they opted out: opted out once every row of the file is in, so a number's
    // later rows are counted as they would be without its status cells. Kept compact (`MsisdnSet`, outside the heap).
    const optOuts = MsisdnSet.make(16)
    const cancelOptOuts = Effect.gen(function*() {
      // Sorted: in the set's hash order 1M opt-outs took 16.6–19.6 s on SQLite, sorted 2.1–3.1 s.
      for (const msisdns of MsisdnSet.sortedChunks(optOuts, optOutChunk)) tally.opted_out_by_file += yield* store.cancel(msisdns)
    })
    const optedOut: Array<string> = []
    let optedOutComplete = true
    const listOptedOut = (msisdn: string) => {
      if (optedOut.includes(msisdn)) return
      if (optedOut.length < optedOutListLimit) optedOut.push(msisdn)
      else optedOutComplete = false
    }
    const rules: { [R in Msisdn.Rule]: number } = {
      "international": 0,
      "national": 0,
      "trunk-prefix-dropped": 0,
      "calling-code-digits": 0
    }
    const notes: { [N in ContactRows.Note]: number } = {
      "trunk-prefix-added": 0,
      "ambiguous": 0,
      "country-ignored": 0,
      "extension-dropped": 0,
      "letters-converted": 0,
      "label-dropped": 0,
      "phone-from-fallback-column": 0,
      "first-of-several": 0,
      "control-characters-replaced": 0,
      "no-sms-consent": 0
    }
    const reasons: { [R in ContactRows.Reason]?: number } = {}
    // The numbers of the file so far; with a set-based import, only those since its last merge.
    const seen = MsisdnSet.make()
    const blankErases = options.blankErases ?? false

    const count = (outcomes: ReadonlyArray<ContactBook.Outcome>) => {
      for (const outcome of outcomes) {
        tally[outcome.kind]++
        if (outcome.suppressed === true) tally.suppressed++
        if (!outcome.optedOut) continue
        tally.opted_out++
        listOptedOut(outcome.msisdn)
      }
    }

    // Set-based where the store can: the first row of a number since the last merge is staged, and the staging merged
    // every `mergeEvery` rows staged or waiting; later rows wait for that merge, then go through the row-by-row rule
    // (they only add tags), as do the staged rows whose number an earlier merge took (the merge hands them back).
    // Opened inside the file's transaction (below), which the staging lives and dies with.
    let bulk: ContactStore.BulkImport | undefined
    const mergeEvery = options.mergeEvery ?? defaultMergeEvery
    let staged = 0
    let waiting: Array<ContactBook.Candidate> = []

    const upsertRepeats = Effect.fnUntraced(function*(repeats: ReadonlyArray<ContactBook.Candidate>) {
      for (let at = 0; at < repeats.length; at += batchSize) {
        count(yield* ContactBook.upsertContacts(repeats.slice(at, at + batchSize), { blankErases: false }))
      }
    })

    const mergeStaged = Effect.fnUntraced(function*(importer: ContactStore.BulkImport, last: boolean) {
      // One number more than the list has room for: whether it comes back says whether the list is cut.
      const merged = yield* importer.merge(optedOutListLimit - optedOut.length + 1, last)
      tally.created += merged.created
      tally.updated += merged.updated
      tally.unchanged += merged.unchanged
      tally.opted_out += merged.optedOut
      tally.suppressed += merged.suppressed
      for (const msisdn of merged.optedOutMsisdns) listOptedOut(msisdn)
      staged = 0
      seen.clear()
      tally.duplicates += merged.repeats.length
      // Each handed-back row was its number's first since the last merge: before that number's waiting rows. Its
      // number comes back as stored text, read again: it was read once already, so failing now is a defect.
      const repeats: Array<ContactBook.Candidate> = []
      for (const repeat of merged.repeats) {
        const msisdn = yield* Effect.orDie(Effect.fromResult(Msisdn.parse(repeat.msisdn)))
        repeats.push(asRepeat({ ...repeat, msisdn }))
      }
      for (const repeat of waiting) repeats.push(repeat)
      waiting = []
      yield* upsertRepeats(repeats)
    })

    const importBatch = Effect.fnUntraced(function*(rows: ReadonlyArray<RowBatches.Row>) {
      const firsts: Array<ContactBook.Candidate> = []
      const repeats: Array<ContactBook.Candidate> = []
      const rejected: Array<RejectsFile.Rejected> = []
      for (const row of rows) {
        const read = row.read
        if (read._tag === "Reject") {
          // Refused for something else than its number, a row whose status says it opted out still opts it out.
          if (read.optOut !== undefined) optOuts.addSeen(read.optOut)
          reasons[read.reason] = (reasons[read.reason] ?? 0) + 1
          rejected.push({ line: row.line, reason: read.reason, message: read.message, fields: row.fields })
          continue
        }
        rules[read.rule]++
        for (const note of read.notes) notes[note]++
        const candidate = read.candidate
        if (read.optOut) optOuts.addSeen(candidate.msisdn)
        if (seen.addSeen(candidate.msisdn)) repeats.push(asRepeat(candidate))
        else firsts.push(candidate)
      }
      tally.read += firsts.length + repeats.length + rejected.length
      tally.rejected += rejected.length
      tally.duplicates += repeats.length
      if (rejects !== undefined) yield* rejects.write(rejected)
      if (bulk !== undefined) {
        if (firsts.length > 0) yield* ContactBook.stageContacts(bulk, firsts)
        staged += firsts.length
        for (const repeat of repeats) waiting.push(repeat)
        // Waiting rows count too: a file of few numbers written many times would otherwise hold them all until the end.
        if (staged + waiting.length >= mergeEvery) yield* mergeStaged(bulk, false)
      } else {
        if (firsts.length > 0) count(yield* ContactBook.upsertContacts(firsts, { blankErases }))
        // Later rows of a number only add tags: a blank name never erases what its first row set.
        if (repeats.length > 0) count(yield* ContactBook.upsertContacts(repeats, { blankErases: false }))
      }
      if (options.onProgress !== undefined) {
        const now = yield* Clock.currentTimeMillis
        const input_bytes = reader.consumed()
        yield* options.onProgress({ read: tally.read, rejected: tally.rejected, elapsed_ms: now - started, ...(input_bytes === undefined ? {} : { input_bytes }) })
      }
    })

    const all = Effect.gen(function*() {
      if (store.bulkImport !== undefined) bulk = yield* store.bulkImport({ blankErases })
      for (;;) {
        const rows = yield* next
        if (rows.length === 0) break
        yield* importBatch(rows)
      }
      if (bulk !== undefined) yield* mergeStaged(bulk, true)
      yield* cancelOptOuts
      const exceeded = options.maxRejects !== undefined && exceeds(options.maxRejects, tally.rejected, tally.read)
      // In place before the commit: a rejects file that cannot be written rolls the import back.
      const placed = rejects === undefined ? undefined : yield* rejects.finish
      if (dryRun || exceeded) return yield* new Rollback({ exceeded, placed })
      // A stop from here on may come in the commit (SQLite copies the pages in then): it must not say "rolled back".
      yield* Effect.sync(() => Interruption.keep(committing))
      return { committed: true, exceeded, placed }
    })

    const { committed, exceeded, placed } = yield* store.transaction(all).pipe(
      Effect.catchTag("Rollback", ({ exceeded, placed }) => Effect.succeed({ committed: false, exceeded, placed }))
    )
    yield* Effect.sync(() => Interruption.keep(committed ? imported : rolledBack))
    const elapsed = (yield* Clock.currentTimeMillis) - started
    const columnNames: { [F in Columns.Field]?: string } = {}
    for (const field of Columns.fields) {
      const at = columns.index[field]
      if (at !== undefined) columnNames[field] = columns.header[at] ?? ""
    }
    const summary: Summary = {
      ...tally,
      opted_out_msisdns: optedOut,
      opted_out_msisdns_complete: optedOutComplete,
      rules,
      notes,
      reasons,
      rejects_file: placed ?? null,
      unknown_columns: columns.unknown,
      columns: columnNames,
      fallback_columns: columns.fallbacks.map((at) => columns.header[at] ?? ""),
      country_fallback_columns: columns.countryFallbacks.map((at) => columns.header[at] ?? ""),
      encoding: reader.encoding(),
      delimiter: reader.delimiter,
      elapsed_ms: elapsed,
      rows_per_second: elapsed > 0 ? Math.round(tally.read / (elapsed / 1000)) : tally.read,
      dry_run: dryRun,
      committed,
      max_rejects_exceeded: exceeded
    }
    return summary
  },
  Effect.scoped
)
