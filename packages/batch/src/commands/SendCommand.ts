/**
 * `smsbook send --to MSISDN --message TEXT`: one SMS to one number, handed to the carrier
 * (READY, then SENT).
 */
import { Account, Message, Messaging } from "@smsbook/core"
import { Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import * as Format from "../Format.ts"
import * as GlobalFlags from "../GlobalFlags.ts"
import * as SendDigest from "../internal/sendDigest.ts"
import * as Output from "../Output.ts"

export const command = Command.make(
  "send",
  {
    ...GlobalFlags.flags,
    to: Flag.String("to").pipe(Flag.withDescription("Recipient: 447400123456, +44 7400 123456, or 07400 123456 with --default-country")),
    defaultCountry: GlobalFlags.defaultCountry,
    message: Flag.String("message").pipe(Flag.withDescription("Text, without the short-name prefix")),
    id: GlobalFlags.optionalText(
      "id",
      "External id (≤ 40 characters) for the anti-spam check; without it, the same text to the same number is sent once per spam period"
    )
  },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.gen(function*() {
        const msisdn = yield* GlobalFlags.readNumber("--to", input.to, input.defaultCountry)
        const message = yield* Effect.fromResult(Message.checkText(input.message, "--message"))
        const id = Option.isSome(input.id) ? input.id.value : SendDigest.of("sd", [msisdn, message, (yield* Account.Account).short_name])
        const sent = yield* GlobalFlags.namingFlags({ id: "--id", message: "--message" })(Messaging.sendNow({ msisdn, message, id }))
        yield* Output.print(input.json, sent, (m) => [Format.message(m), `  message_id ${m.message_id ?? "-"}`])
      }),
      { needsShortName: true }
    )
).pipe(
  Command.withDescription("Send one SMS to one number (READY, then SENT once handed to the carrier)"),
  Command.withExamples([
    { command: "smsbook send --to 07400123456 --default-country GB --message \"Your table is ready\" --short-name ACME", description: "One text" }
  ])
)
