/**
 * `smsbook inspect "TEXT" --short-name NAME`: what a text costs before it is sent — the prefixed
 * text, the budget, the encoding, the SMS parts, and the characters that force UCS-2.
 */
import { Sms } from "@smsbook/core"
import { Effect } from "effect"
import { Argument, Command } from "effect/cli"
import * as Common from "../GlobalFlags.ts"
import * as Output from "../Output.ts"

export interface Inspection {
  readonly short_name: string
  readonly text: string
  readonly prefixed: string
  readonly budget: number
  readonly length: number
  readonly fits: boolean
  readonly encoding: Sms.Encoding
  readonly units: number
  readonly segments: number
  readonly parts: ReadonlyArray<string>
  readonly ucs2_characters: ReadonlyArray<Sms.Ucs2Character>
  /** The text with every look-alike applied, and what it would cost. */
  readonly gsm_safe?: { readonly text: string; readonly encoding: Sms.Encoding; readonly segments: number }
}

/** Everything `inspect` reports about `text` sent under `shortName`. */
export const inspect = (shortName: string, text: string): Inspection => {
  const analysis = Sms.analyzePrefixed(shortName, text)
  const ucs2 = Sms.ucs2Characters(Sms.prefix(shortName, text))
  const safeText = Sms.gsmSafe(text)
  const safe = Sms.analyzePrefixed(shortName, safeText)
  return {
    short_name: shortName,
    text,
    prefixed: Sms.prefix(shortName, text),
    budget: Sms.budget(shortName),
    length: Sms.characterCount(text),
    fits: Sms.characterCount(text) <= Sms.budget(shortName),
    encoding: analysis.encoding,
    units: analysis.units,
    segments: analysis.segments,
    parts: analysis.parts,
    ucs2_characters: ucs2,
    ...(ucs2.length === 0 ? {} : { gsm_safe: { text: safeText, encoding: safe.encoding, segments: safe.segments } })
  }
}

const human = (report: Inspection): ReadonlyArray<string> => [
  `prefixed:  ${JSON.stringify(report.prefixed)}`,
  `length:    ${report.length} of ${report.budget} characters (${report.fits ? "fits" : "TOO LONG"})`,
  `encoding:  ${report.encoding}, ${report.units} ${report.encoding === "GSM-7" ? "septets" : "UTF-16 units"}`,
  `segments:  ${report.segments}`,
  ...report.parts.map((part, index) => `  part ${index + 1}: ${JSON.stringify(part)}`),
  ...(report.ucs2_characters.length === 0 ? [] : [
    "characters forcing UCS-2:",
    ...report.ucs2_characters.map(({ char, index, suggestion }) =>
      `  ${JSON.stringify(char)} U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")} at ${index}` +
      (suggestion === undefined ? " (no GSM look-alike)" : ` → use ${JSON.stringify(suggestion)}`)
    ),
    ...(report.gsm_safe === undefined ? [] : [
      `with look-alikes: ${report.gsm_safe.encoding}, ${report.gsm_safe.segments} segment(s)`
    ])
  ])
]

export const command = Command.make(
  "inspect",
  {
    text: Argument.String("text").pipe(Argument.withDescription("The message text, without the prefix")),
    json: Common.json,
    shortName: Common.account.shortName
  },
  Effect.fnUntraced(function*(input) {
    const settings = yield* Common.settings({ ...Common.noAccountFlags, shortName: input.shortName }, { needsShortName: true })
    const report = inspect(settings.account.short_name, input.text)
    yield* Output.print(input.json, report, human)
    if (!report.fits) {
      return yield* Effect.fromResult(Sms.checkBudget(settings.account.short_name, input.text))
    }
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
