/**
 * `smsbook report`: the messages matching the filters of `GET /messages`, as CSV or JSON, streamed
 * to a file or stdout, with `--summary` per day × status × direction.
 */
import { Query } from "@smsbook/core"
import { Console, Effect } from "effect"
import { Command, Flag } from "effect/cli"
import * as Common from "../GlobalFlags.ts"
import { filterFlags, filterParameters } from "./MessagesCommand.ts"
import * as Output from "../Output.ts"
import * as Report from "../jobs/Report.ts"

const summaryLines = (result: Report.Result): ReadonlyArray<string> => [
  `${result.rows} messages`,
  ...(result.summary.length === 0 ? [] : [
    ["day       ", "dir", "status    ", "messages", "sms", "recipients", "monitors", "errors"].join("  "),
    ...result.summary.map((row) =>
      [row.day, row.direction.padEnd(3), row.status.padEnd(10), String(row.messages).padStart(8), String(row.sms).padStart(3),
        String(row.recipients).padStart(10), String(row.monitors).padStart(8), String(row.errors).padStart(6)].join("  ")
    )
  ])
]

export const command = Command.make(
  "report",
  {
    ...Common.flags,
    ...filterFlags,
    format: Flag.Literals("format", ["csv", "json"]).pipe(Flag.withDescription("Output format"), Flag.withDefault("csv")),
    out: Flag.String("out").pipe(Flag.withDescription("Output file, or - for stdout"), Flag.withDefault("-")),
    summary: Flag.Boolean("summary").pipe(
      Flag.withDescription("Also print messages, SMS, recipients and errors per day × status × direction"),
      Flag.withDefault(false)
    )
  },
  (input) =>
    Common.withStore(
      input,
      Effect.gen(function*() {
        // The filters are checked exactly as GET /messages checks them; paging does not apply to a report.
        const { limit: _, start: __, ...filter } = yield* Effect.fromResult(Query.messages(yield* filterParameters(input)))
        const result = yield* Report.write(filter, input.format, input.out)
        // The report owns stdout when written there: the summary then goes to stderr.
        const toStdout = input.out !== "-"
        if (input.summary || toStdout) {
          const lines = input.summary ? summaryLines(result) : [`${result.rows} messages written to ${input.out}`]
          if (toStdout) yield* Output.print(input.json, input.summary ? result : { rows: result.rows, out: input.out }, () => lines)
          else yield* Effect.forEach(lines, (line) => Console.error(line), { discard: true })
        }
      })
    )
).pipe(
  Command.withDescription("Export messages as spreadsheet-safe CSV or JSON, streamed, with an optional summary"),
  Command.withExamples([
    { command: "smsbook report --from 2026-11-01 --to 2026-11-30 --out november.csv --summary", description: "A month" }
  ])
)
