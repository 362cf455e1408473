/**
 * `smsbook import FILE|-`: the nightly contact CSV import, with a summary (human or `--json`), progress on a
 * terminal, a rejects file, and exit code 3 when more rows were rejected than `--max-rejects` allows.
 */
import { InvalidParameter } from "@smsbook/core"
import { Clock, Console, Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import * as fs from "node:fs"
import * as Common from "./Common.ts"
import * as Import from "./Import.ts"
import * as CsvDialect from "./internal/csvDialect.ts"
import * as Output from "./Output.ts"

const optionalText = (name: string, description: string) =>
  Flag.String(name).pipe(Flag.withDescription(description), Flag.optional)

const flags = {
  ...Common.flags,
  file: Argument.String("file").pipe(Argument.withDescription("The CSV file to import, or - for standard input")),
  defaultCountry: optionalText(
    "default-country",
    "Country of numbers written nationally (07400 123456), when a row has no country column: GB, or 44"
  ),
  map: Flag.String("map").pipe(
    Flag.withDescription("\"Column Name=field\" (msisdn, first_name, last_name, name, country, tags, ignore); repeatable"),
    Flag.atLeast(0)
  ),
  tags: optionalText("tags", "Comma-separated tags added to every imported contact, e.g. newsletter,2026-11"),
  rejects: optionalText(
    "rejects",
    "Where rejected rows go (default FILE.rejects.csv beside the input; ./smsbook-rejects.csv for stdin)"
  ),
  dryRun: Flag.Boolean("dry-run").pipe(
    Flag.withDescription(
      "Do everything, report, and write nothing to the store (rejected rows are still written to the rejects file; an earlier rejects file is never removed)"
    ),
    Flag.withDefault(false)
  ),
  maxRejects: optionalText(
    "max-rejects",
    "Fail with exit code 3, changing nothing, when more rows are rejected: a number (10) or a percentage (1%)"
  ),
  encoding: optionalText("encoding", "Input encoding (utf-8, windows-1252, latin1, utf-16le…); detected by default"),
  blankErases: Flag.Boolean("blank-erases").pipe(
    Flag.withDescription("A blank name in the file erases the stored one (by default blanks keep it)"),
    Flag.withDefault(false)
  )
}

/** Where rejected rows go when `--rejects` is not given. */
export const defaultRejectsPath = (file: string): string => file === "-" ? "smsbook-rejects.csv" : `${file}.rejects.csv`

const splitTags = (text: string): ReadonlyArray<string> =>
  text.split(",").map((tag) => tag.trim()).filter((tag) => tag !== "")

const fileError = (file: string, error: unknown) => {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : ""
  const reason = code === "ENOENT"
    ? "no such file"
    : code === "EISDIR"
    ? "is a directory"
    : code === "EACCES"
    ? "permission denied"
    : error instanceof Error
    ? error.message
    : String(error)
  return new InvalidParameter({ parameter: "FILE", value: file, reason })
}

/**
 * The bytes of FILE (`-`: standard input), closed with the scope; a file that cannot be opened is bad input
 * (exit 2).
 */
const openInput = (file: string) =>
  file === "-" ? Effect.succeed<AsyncIterable<Uint8Array>>(process.stdin) : Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const handle = await fs.promises.open(file, "r")
        const stat = await handle.stat()
        if (stat.isDirectory()) {
          await handle.close()
          throw Object.assign(new Error("is a directory"), { code: "EISDIR" })
        }
        return handle.createReadStream({ highWaterMark: 1 << 16 })
      },
      catch: (error) => fileError(file, error)
    }),
    (stream) => Effect.sync(() => stream.destroy())
  )

const number = (value: number): string => value.toLocaleString("en-US")

/** The progress line: redrawn at most every 250 ms, on stderr, only when it is a terminal. */
const progressLine = () => {
  if (process.stderr.isTTY !== true) return { report: undefined, clear: Effect.void }
  let last = 0
  let drawn = false
  const report = (progress: Import.Progress) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.sync(() => {
        if (now - last < 250) return
        last = now
        drawn = true
        const seconds = progress.elapsed_ms / 1000
        const rate = seconds > 0 ? Math.round(progress.read / seconds) : 0
        process.stderr.write(
          `\r\x1b[K  ${number(progress.read)} rows  ${number(rate)} rows/s  ${number(progress.rejected)} rejected`
        )
      }))
  return { report, clear: Effect.sync(() => void (drawn && process.stderr.write("\r\x1b[K"))) }
}

const plural = (count: number, one: string, many = `${one}s`) => `${number(count)} ${count === 1 ? one : many}`

const counts = (record: { readonly [key: string]: number | undefined }): string =>
  Object.entries(record).filter(([, count]) => count !== undefined && count > 0).map(([name, count]) =>
    `${number(count ?? 0)} ${name}`
  ).join(", ")

/** The human summary. */
export const describe = (file: string, summary: Import.Summary): ReadonlyArray<string> => {
  const source = file === "-" ? "standard input" : file
  const delimiter = summary.delimiter === "\t" ? "tab" : summary.delimiter
  const lines = [
    `${summary.dry_run ? "dry run of" : "imported"} ${source} (${summary.encoding}, delimiter ${delimiter}): ${
      plural(summary.read, "row")
    } read`,
    `  created ${number(summary.created)}, updated ${number(summary.updated)}, unchanged ${
      number(summary.unchanged)
    }, rejected ${number(summary.rejected)}`
  ]
  const rules = counts(summary.rules)
  if (rules !== "") lines.push(`  numbers read as: ${rules}`)
  const notes = counts(summary.notes)
  if (notes !== "") lines.push(`  notes: ${notes}`)
  const fields = Object.entries(summary.columns).map(([field, column]) =>
    field === "msisdn" && summary.fallback_columns.length > 0
      ? `${field} ← ${column} (then ${summary.fallback_columns.join(", ")})`
      : `${field} ← ${column}`
  )
  lines.push(`  columns: ${fields.join(", ")}`)
  if (summary.duplicates > 0) lines.push(`  ${plural(summary.duplicates, "row")} repeated an earlier number: merged (tags added)`)
  if (summary.opted_out > 0) {
    const shown = summary.opted_out_msisdns.join(", ")
    const more = summary.opted_out > summary.opted_out_msisdns.length ? ", …" : ""
    lines.push(`  ${plural(summary.opted_out, "row")} of opted-out contacts, left CANCELLED: ${shown}${more}`)
  }
  if (summary.rejected > 0) {
    lines.push(`  rejected: ${counts(summary.reasons)}${summary.rejects_file === null ? "" : ` → ${summary.rejects_file}`}`)
  }
  if (summary.unknown_columns.length > 0) lines.push(`  columns not read: ${summary.unknown_columns.join(", ")}`)
  if (summary.max_rejects_exceeded) lines.push("  too many rejected rows (--max-rejects): rolled back, the store is unchanged")
  else if (summary.dry_run) lines.push("  dry run: rolled back, the store is unchanged")
  lines.push(`  ${(summary.elapsed_ms / 1000).toFixed(1)} s, ${number(summary.rows_per_second)} rows/s`)
  return lines
}

export const command = Command.make("import", flags, (input) =>
  Effect.gen(function*() {
    const maxRejects = Option.isSome(input.maxRejects)
      ? Option.some(yield* Effect.fromResult(Import.parseMaxRejects(input.maxRejects.value)))
      : Option.none()
    const encoding = Option.getOrUndefined(input.encoding)
    if (encoding !== undefined && !CsvDialect.encodingExists(encoding)) {
      return yield* new InvalidParameter({ parameter: "--encoding", value: encoding, reason: "unknown encoding" })
    }
    const rejectsPath = Option.getOrElse(input.rejects, () => defaultRejectsPath(input.file))
    const source = yield* openInput(input.file)
    if (input.file === "-" && process.stdin.isTTY === true) {
      yield* Console.error("reading contacts from standard input (end with Ctrl-D)")
    }
    const progress = progressLine()
    const summary = yield* Common.withStore(
      input,
      Import.run(source, {
        source: input.file,
        defaultCountry: Option.getOrUndefined(input.defaultCountry),
        map: input.map,
        tags: Option.match(input.tags, { onNone: () => [], onSome: splitTags }),
        blankErases: input.blankErases,
        dryRun: input.dryRun,
        maxRejects: Option.getOrUndefined(maxRejects),
        encoding,
        rejectsPath,
        onProgress: progress.report
      })
    ).pipe(Effect.ensuring(progress.clear))
    yield* Output.print(input.json, summary, (value) => describe(input.file, value))
    if (summary.max_rejects_exceeded && Option.isSome(maxRejects)) {
      return yield* new Output.TooManyRejects({
        rejected: summary.rejected,
        allowed: Import.formatMaxRejects(maxRejects.value)
      })
    }
  }).pipe(Effect.scoped)).pipe(
    Command.withDescription("Import contacts from a CSV file: upsert by number, report every rejected row"),
    Command.withExamples([
      { command: "smsbook import samples/contacts.csv --default-country GB", description: "A clean file" },
      {
        command: "smsbook import export.csv --default-country GB --tags newsletter --max-rejects 1% --json",
        description: "A nightly job: fails with exit code 3, changing nothing, when over 1% of rows are rejected"
      },
      { command: "smsbook import - --dry-run < contacts.csv", description: "Preview from standard input" }
    ])
  )
