/**
 * `smsbook report`: the messages matching the filters of `GET /messages`, as CSV, JSON or JSON Lines,
 * streamed to a file or stdout, with `--summary` per day × status × direction.
 */
import { Effect } from "effect"
import { Command, Flag } from "effect/cli"
import * as Format from "../Format.ts"
import * as GlobalFlags from "../GlobalFlags.ts"
import * as OutputPath from "../internal/outputPath.ts"
import * as Report from "../jobs/Report.ts"
import * as MessageFilter from "../MessageFilter.ts"
import * as Output from "../Output.ts"

export const command = Command.make(
  "report",
  {
    ...GlobalFlags.flags,
    ...MessageFilter.flags,
    format: Flag.Literals("format", ["csv", "json", "jsonl"]).pipe(
      Flag.withDescription("csv (default), json (one array; the default with --json to stdout) or jsonl (one message a line)"),
      Flag.optional
    ),
    ...GlobalFlags.exportFlags,
    summary: Flag.Boolean("summary").pipe(
      Flag.withDescription("Also give messages, SMS, recipients and errors per day × status × direction"),
      Flag.withDefault(false)
    )
  },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.gen(function*() {
        const format = yield* Output.exportFormat(input)
        const filter = yield* MessageFilter.filter(input)
        // `/dev/stdout` and the like are written as `-` is: the data owns stdout.
        const out = Output.exportOut(input.out)
        const result = yield* Output.exporting(input.json, out, Report.write(filter, format, out, { excel: input.excel }))
        const document = input.summary ? { rows: result.rows, format, out: input.out, summary: result.summary } : { rows: result.rows, format, out: input.out }
        yield* Output.exported(input.json, out, document, () =>
          input.summary
            ? Format.reportSummary(result)
            : [`${result.rows.toLocaleString("en-US")} messages written${out === "-" ? "" : ` to ${input.out}`}`])
      }),
      { check: OutputPath.exportCheck(input.out), cacheKiB: Report.cacheKiB }
    )
).pipe(
  Command.withDescription("Export messages as spreadsheet-safe CSV, JSON or JSON Lines, streamed, with an optional summary"),
  Command.withExamples([
    { command: "smsbook report --since 2026-11-01 --until 2026-11-30 --out november.csv --summary", description: "A month" },
    { command: "smsbook report --direction MO --format jsonl", description: "Every inbound message, one JSON a line" }
  ])
)
