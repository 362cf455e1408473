/**
 * `smsbook inspect "TEXT" --short-name NAME`: what a text costs before it is sent — the prefixed
 * text, the budget, the encoding, the SMS parts, and the characters that force UCS-2.
 */
import { Message, Sms } from "@smsbook/core"
import { Effect, Result } from "effect"
import { Argument, Command } from "effect/cli"
import * as Format from "../Format.ts"
import * as GlobalFlags from "../GlobalFlags.ts"
import * as Inspection from "../jobs/Inspection.ts"
import * as Output from "../Output.ts"

export const command = Command.make(
  "inspect",
  {
    text: Argument.String("text").pipe(Argument.withDescription("The message text, without the prefix")),
    json: GlobalFlags.json,
    shortName: GlobalFlags.account.shortName
  },
  Effect.fnUntraced(function*(input) {
    const settings = yield* GlobalFlags.settings({ ...GlobalFlags.noAccountFlags, shortName: input.shortName }, { needsShortName: true })
    // A text a send refuses (empty, blank, not valid Unicode) is refused here too: inspect says what a send would do.
    yield* Effect.fromResult(Message.checkText(input.text, "TEXT"))
    const report = Inspection.inspect(settings.account.short_name, input.text)
    if (report.fits) return yield* Output.print(input.json, report, Format.inspection)
    // Over budget: the analysis is shown all the same (in the error's document with --json), then the refusal.
    if (!input.json) yield* Output.lines(Format.inspection(report))
    return yield* Effect.fromResult(Result.mapError(Sms.checkBudget(settings.account.short_name, input.text), (error) =>
      Output.carrying(error, { field: "TEXT", inspection: report })))
  })
).pipe(
  Command.withDescription(
    "Show how a text is sent: prefixed text, budget, GSM-7 or UCS-2, SMS parts, characters that force UCS-2"
  ),
  Command.withExamples([
    { command: "smsbook inspect \"Your code is 1234\" --short-name ACME", description: "One GSM-7 SMS" },
    { command: "smsbook inspect \"Don’t miss it…\" --short-name ACME --json", description: "Curly quote forces UCS-2" }
  ])
)
