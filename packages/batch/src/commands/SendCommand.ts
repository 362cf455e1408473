/**
 * `smsbook send --to MSISDN --message TEXT`: one SMS to one number, handed to the carrier
 * (READY, then SENT).
 */
import { Messaging } from "@smsbook/core"
import { Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import * as Format from "../Format.ts"
import * as GlobalFlags from "../GlobalFlags.ts"
import * as MessageText from "../internal/messageText.ts"
import * as Output from "../Output.ts"

export const command = Command.make(
  "send",
  {
    ...GlobalFlags.flags,
    to: Flag.String("to").pipe(Flag.withDescription("Recipient MSISDN, e.g. 447400123456")),
    message: Flag.String("message").pipe(Flag.withDescription("Text, without the short-name prefix")),
    id: GlobalFlags.optionalText("id", "External id (≤ 40 characters) for the anti-spam check")
  },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.gen(function*() {
        const sent = yield* Messaging.sendNow({
          msisdn: input.to,
          // Checked here until core's use case refuses blank text itself (DESIGN: "empty text").
          message: yield* Effect.fromResult(MessageText.check(input.message, "--message")),
          ...(Option.isSome(input.id) ? { id: input.id.value } : {})
        })
        yield* Output.print(input.json, sent, (m) => [Format.message(m), `  message_id ${m.message_id ?? "-"}`])
      }),
      { needsShortName: true }
    )
).pipe(Command.withDescription("Send one SMS to one number (READY, then SENT once handed to the carrier)"))
