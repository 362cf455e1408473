/**
 * `smsbook report`: the messages matching the filters of `GET /messages`, as CSV or JSON, streamed
 * to a file or stdout, with `--summary` per day × status × direction.
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
    format: Flag.Literals("format", ["csv", "json"]).pipe(Flag.withDescription("Output format"), Flag.withDefault("csv")),
    out: Flag.String("out").pipe(Flag.withDescription("Output file, or - for stdout"), Flag.withDefault("-")),
    summary: Flag.Boolean("summary").pipe(
      Flag.withDescription("Also print messages, SMS, recipients and errors per day × status × direction"),
      Flag.withDefault(false)
    )
  },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.gen(function*() {
        const result = yield* Report.write(yield* MessageFilter.filter(input), input.format, input.out)
        // The report owns stdout when written there: the summary then goes to stderr.
        const toStdout = input.out !== "-"
        if (input.summary || toStdout) {
          const lines = input.summary ? Format.reportSummary(result) : [`${result.rows} messages written to ${input.out}`]
          if (toStdout) yield* Output.print(input.json, input.summary ? result : { rows: result.rows, out: input.out }, () => lines)
          else yield* Effect.forEach(lines, Output.note, { discard: true })
        }
      }),
      { needsShortName: false, check: (store) => OutputPath.ensureDistinct("--out", input.out, OutputPath.storeFiles(store)) }
    )
).pipe(
  Command.withDescription("Export messages as spreadsheet-safe CSV or JSON, streamed, with an optional summary"),
  Command.withExamples([
    { command: "smsbook report --from 2026-11-01 --to 2026-11-30 --out november.csv --summary", description: "A month" }
  ])
)
