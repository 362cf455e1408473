/**
 * `smsbook receive --msisdn MSISDN --message TEXT`: an inbound SMS (MO) recorded; STOP-like keywords
 * opt the sender out, START resubscribes.
 */
import { Messaging } from "@smsbook/core"
import { Effect } from "effect"
import { Command, Flag } from "effect/cli"
import * as Format from "../Format.ts"
import * as GlobalFlags from "../GlobalFlags.ts"
import * as Output from "../Output.ts"

export const command = Command.make(
  "receive",
  {
    ...GlobalFlags.flags,
    msisdn: Flag.String("msisdn").pipe(Flag.withDescription("The sender's number (national with --default-country)")),
    defaultCountry: GlobalFlags.defaultCountry,
    message: Flag.String("message").pipe(Flag.withDescription("The text received"))
  },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.gen(function*() {
        const received = yield* Messaging.receiveMessage(yield* GlobalFlags.readNumber("--msisdn", input.msisdn, input.defaultCountry), input.message)
        yield* Output.print(input.json, received, (r) => [
          Format.message(r.message),
          ...(r.contact === undefined ? [] : [`  ${r.action}: ${Format.contact(r.contact)}`])
        ])
      })
    )
).pipe(
  Command.withDescription("Record an inbound SMS (MO); STOP-like keywords opt the sender out, START resubscribes"),
  Command.withExamples([{ command: "smsbook receive --msisdn 447400123456 --message STOP", description: "An opt-out by text" }])
)
