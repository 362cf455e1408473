/**
 * `smsbook suppressions export|import|add`: the suppression list (every number that opted out, whether or not a
 * contact still has it) written to a file, loaded from one, or given one more number.
 */
import { InvalidParameter } from "@smsbook/core"
import { Console, Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import * as Format from "../Format.ts"
import * as GlobalFlags from "../GlobalFlags.ts"
import * as InputFile from "../internal/inputFile.ts"
import * as OutputPath from "../internal/outputPath.ts"
import * as RejectsFile from "../internal/rejectsFile.ts"
import * as Suppressions from "../jobs/Suppressions.ts"
import * as Output from "../Output.ts"

const exportCommand = Command.make(
  "export",
  {
    ...GlobalFlags.flags,
    format: Flag.Literals("format", ["csv", "json", "jsonl"]).pipe(
      Flag.withDescription("csv (default; suppressed_msisdn and country_code columns, as suppressions import reads them), json (one array) or jsonl"),
      Flag.optional
    ),
    ...GlobalFlags.exportFlags
  },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.gen(function*() {
        const format = yield* Output.exportFormat(input)
        // `/dev/stdout` and the like are written as `-` is: the data owns stdout.
        const out = Output.exportOut(input.out)
        const result = yield* Output.exporting(input.json, out, Suppressions.write(out, { format, excel: input.excel }))
        yield* Output.exported(input.json, out, result, (r) => [
          `${r.rows.toLocaleString("en-US")} suppressed numbers exported as ${r.format}${r.out === "-" ? "" : ` to ${r.out}`}`
        ])
      }),
      { check: OutputPath.exportCheck(input.out) }
    )
).pipe(
  Command.withDescription("Export the suppression list: every number that opted out, deleted contacts' included"),
  Command.withExamples([
    { command: "smsbook suppressions export --out suppressed.csv", description: "The list, to load into another book" }
  ])
)

const importCommand = Command.make(
  "import",
  {
    ...GlobalFlags.flags,
    file: Argument.String("file").pipe(Argument.withDescription("A CSV file with a phone-number column, or - for standard input")),
    ...GlobalFlags.fileFlags,
    map: Flag.String("map").pipe(
      Flag.withDescription("\"Column Name=field\" (msisdn, country, or ignore): which column holds the number; repeatable"),
      Flag.atLeast(0)
    ),
    rejects: GlobalFlags.optionalText("rejects", "Where rows whose number cannot be read go (default FILE.rejects.csv beside the input)"),
    dryRun: Flag.Boolean("dry-run").pipe(
      Flag.withDescription("Read the file and report what would change, changing nothing (rejected rows are still written)"),
      Flag.withDefault(false)
    )
  },
  (input) =>
    Effect.gen(function*() {
      const encoding = yield* GlobalFlags.checkedEncoding(input.encoding)
      const rejectsPath = Option.getOrElse(input.rejects, () => RejectsFile.defaultPath(input.file))
      if (OutputPath.isStandardOutput(rejectsPath)) {
        return yield* new InvalidParameter({ parameter: "--rejects", value: rejectsPath, reason: "is standard output: give the rejects a file" })
      }
      const source = yield* InputFile.open(input.file)
      if (input.file === "-" && process.stdin.isTTY === true) yield* Console.error("reading numbers from standard input (end with Ctrl-D)")
      const loaded = yield* GlobalFlags.withStore(
        input,
        Suppressions.load(source, {
          source: input.file,
          defaultCountry: Option.getOrUndefined(input.defaultCountry),
          map: input.map,
          dryRun: input.dryRun,
          encoding,
          rejectsPath
        }),
        {
          // No `create`: the book must exist (as for `contacts`), or a mistyped --store in a nightly job would load
          // the list into a new, empty book and leave the real one without it. The check keeps --rejects off the inputs.
          check: (store) =>
            OutputPath.ensureDistinct("--rejects", rejectsPath, [{ role: "the input FILE", path: input.file }, ...OutputPath.storeFiles(store)])
        }
      ).pipe(Effect.mapError(RejectsFile.explainDefault(input.rejects, input.file)))
      yield* Output.print(input.json, loaded, (l) => Format.suppressionsLoaded(input.file, l))
    }).pipe(Effect.scoped)
).pipe(
  Command.withDescription("Load a file of numbers into the suppression list: each opted out, its contact CANCELLED (none created)"),
  Command.withExamples([
    { command: "smsbook suppressions import samples/do-not-contact.csv --default-country GB --dry-run", description: "Preview what a list changes" },
    { command: "smsbook suppressions import samples/do-not-contact.csv --default-country GB", description: "A do-not-contact list" }
  ])
)

const add = Command.make(
  "add",
  {
    ...GlobalFlags.flags,
    msisdn: Argument.String("msisdn").pipe(
      Argument.withDescription("The number: 447400123456, +44 7400 123456, or 07400 123456 with --default-country GB")
    ),
    defaultCountry: GlobalFlags.defaultCountry
  },
  (input) =>
    GlobalFlags.withStore(input, Effect.gen(function*() {
      const msisdn = yield* GlobalFlags.readNumber("MSISDN", input.msisdn, input.defaultCountry)
      yield* Output.print(input.json, yield* Suppressions.add(msisdn), Format.suppressionAdded)
    }))
).pipe(
  Command.withDescription("Opt a number out, with or without a contact: suppressed, its contact CANCELLED if it has one"),
  Command.withExamples([
    { command: "smsbook suppressions add 07400123456 --default-country GB", description: "Someone who asked to be left alone" }
  ])
)

export const command = Command.make("suppressions").pipe(
  Command.withDescription("The suppression list (numbers that opted out, with or without a contact): export, import, add"),
  Command.withSubcommands([exportCommand, importCommand, add])
)
