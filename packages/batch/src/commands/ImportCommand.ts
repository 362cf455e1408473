/**
 * `smsbook import FILE|-`: the nightly contact CSV import, with a summary (human or `--json`), progress on a
 * terminal, a rejects file, and exit code 3 when more rows were rejected than `--max-rejects` allows.
 */
import { InvalidParameter } from "@smsbook/core"
import { Console, Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import * as fs from "node:fs"
import * as V8 from "node:v8"
import * as CliErrors from "../CliErrors.ts"
import * as Format from "../Format.ts"
import * as GlobalFlags from "../GlobalFlags.ts"
import * as InputFile from "../internal/inputFile.ts"
import * as OutputPath from "../internal/outputPath.ts"
import * as RejectsFile from "../internal/rejectsFile.ts"
import * as Import from "../jobs/Import.ts"
import * as Output from "../Output.ts"
import * as Progress from "../Progress.ts"

const flags = {
  ...GlobalFlags.flags,
  file: Argument.String("file").pipe(Argument.withDescription("The CSV file to import, or - for standard input")),
  ...GlobalFlags.fileFlags,
  map: Flag.String("map").pipe(
    Flag.withDescription("\"Column Name=field\" (msisdn, first_name, last_name, name, country, tags, status, monitoring, ignore); repeatable"),
    Flag.atLeast(0)
  ),
  tags: GlobalFlags.optionalText("tags", "Comma-separated tags added to every imported contact, e.g. newsletter,2026-11"),
  rejects: GlobalFlags.optionalText(
    "rejects",
    "Where rejected rows go (default FILE.rejects.csv beside the input; ./smsbook-rejects.csv for stdin); - for stdout, not with --json (then the summary goes to stderr)"
  ),
  dryRun: Flag.Boolean("dry-run").pipe(
    Flag.withDescription(
      "Do everything, report, and write nothing to the book (rejected rows are still written to the rejects file; an earlier rejects file is never removed; PostgreSQL's schema is brought up to date, as by every command)"
    ),
    Flag.withDefault(false)
  ),
  maxRejects: GlobalFlags.optionalText(
    "max-rejects",
    "Fail with exit code 3, changing nothing, when more rows are rejected: a number (10) or a percentage (1%)"
  ),
  blankErases: Flag.Boolean("blank-erases").pipe(
    Flag.withDescription("A blank name in the file erases the stored one (by default blanks keep it)"),
    Flag.withDefault(false)
  )
}

/** The size of a regular file, for the share read; nothing for pipes and devices. */
const sizeOf = (file: string): number | undefined => {
  try {
    const stat = fs.statSync(file)
    return stat.isFile() ? stat.size : undefined
  } catch {
    return undefined
  }
}

export const command = Command.make("import", flags, (input) =>
  Effect.gen(function*() {
    const maxRejects = Option.isSome(input.maxRejects)
      ? Option.some(yield* Effect.fromResult(Import.parseMaxRejects(input.maxRejects.value)))
      : Option.none()
    const encoding = yield* GlobalFlags.checkedEncoding(input.encoding)
    const rejectsGiven = Option.getOrElse(input.rejects, () => RejectsFile.defaultPath(input.file))
    // Rejects for stdout (-, /dev/stdout…) are copied there after the import, and then they own it: the summary goes
    // to stderr. With --json, stdout is the one JSON document, which CSV cannot join.
    const rejectsToStdout = OutputPath.isStandardOutput(rejectsGiven)
    if (rejectsToStdout && input.json) {
      return yield* new InvalidParameter({
        parameter: "--rejects",
        value: rejectsGiven,
        reason: "is standard output, which carries the one JSON document with --json: give the rejects a file, or leave --rejects out"
      })
    }
    // A temporary file that cannot be made is the machine's failure (exit 1), not the flag's.
    const stdoutRejects = rejectsToStdout ? yield* RejectsFile.standardOutput : undefined
    const rejectsPath = stdoutRejects?.path ?? rejectsGiven
    /** The summary as the user reads it: the rejects where they asked for them (not the temporary file of stdout's). */
    const shown = (summary: Import.Summary): Import.Summary =>
      stdoutRejects === undefined || summary.rejects_file === null ? summary : { ...summary, rejects_file: rejectsGiven }
    const human = rejectsToStdout ? Output.notes : Output.lines
    const sendRejects = stdoutRejects?.send ?? Effect.void
    const opened = yield* InputFile.open(input.file)
    if (input.file === "-" && process.stdin.isTTY === true) {
      yield* Console.error("reading contacts from standard input (end with Ctrl-D)")
    }
    const totalBytes = input.file === "-" ? undefined : sizeOf(input.file)
    const counted = Progress.counting(opened)
    const progress = Progress.line((p: Import.Progress) =>
      Progress.describe({ rows: p.read, rejected: p.rejected, bytes: p.input_bytes ?? counted.bytes(), totalBytes, elapsedMs: p.elapsed_ms })
    )
    const worker = Import.worthAWorker(totalBytes)
    // The flag is the process's, which this command owns (a library caller of `Import.run` keeps V8's default).
    if (worker) V8.setFlagsFromString(Import.noPretenuring)
    // Over --max-rejects the run fails inside the store's use, as a failed run: a book it created goes with it.
    const refuseOverLimit = (summary: Import.Summary) =>
      Effect.gen(function*() {
        if (!summary.max_rejects_exceeded || Option.isNone(maxRejects)) return
        // One outcome, one document: the error carries the summary; people still see the summary first.
        yield* progress.finish
        if (!input.json) yield* human(Format.importSummary(input.file, shown(summary)))
        return yield* new CliErrors.TooManyRejects({
          rejected: summary.rejected,
          read: summary.read,
          allowed: Import.formatMaxRejects(maxRejects.value),
          summary: shown(summary)
        })
      })
    const summary = yield* GlobalFlags.withStore(
      input,
      Effect.tap(Import.run(counted.source, {
        source: input.file,
        defaultCountry: Option.getOrUndefined(input.defaultCountry),
        map: input.map,
        tags: Option.match(input.tags, { onNone: () => [], onSome: GlobalFlags.splitList }),
        blankErases: input.blankErases,
        dryRun: input.dryRun,
        maxRejects: Option.getOrUndefined(maxRejects),
        encoding,
        rejectsPath,
        worker,
        onProgress: progress.report
      }), refuseOverLimit),
      {
        // A dry run into a book that does not exist previews the first import without creating the book.
        create: input.dryRun ? "empty" : true,
        cacheKiB: Import.cacheKiB,
        check: (store) =>
          OutputPath.ensureDistinct("--rejects", rejectsPath, [{ role: "the input FILE", path: input.file }, ...OutputPath.storeFiles(store)])
      }
    ).pipe(
      Effect.mapError(RejectsFile.explainDefault(input.rejects, input.file)),
      // Over the limit, the rejects still come (they are what to fix), once the store is closed (a book the run created
      // removed), with exit code 3 kept should their reader go away.
      Effect.catchTag("TooManyRejects", (tooMany) =>
        Output.earn(Output.exitCodeOf(tooMany)).pipe(Effect.andThen(sendRejects), Effect.andThen(Effect.fail(tooMany)))),
      Effect.ensuring(progress.finish),
      // What stays is the error's to say (Import.rolledBack, committing, imported): this says how far the reading came.
      Effect.onInterrupt(() => Console.error(`interrupted: ${(progress.latest()?.read ?? 0).toLocaleString("en-US")} rows had been read`))
    )
    yield* input.json
      ? Output.json(shown(summary))
      : human(Format.importSummary(input.file, shown(summary)))
    // Rejects on standard output come last, once the store is done with: a reader that goes away (`| head`) then cuts
    // only them, and the run still ends as the import did (Main.stdoutFailed).
    yield* sendRejects
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
