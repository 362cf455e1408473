/**
 * `smsbook receive --from MSISDN --message TEXT`: an inbound SMS (MO) recorded; STOP-like keywords
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
    from: Flag.String("from").pipe(Flag.withDescription("Sender MSISDN")),
    message: Flag.String("message").pipe(Flag.withDescription("The text received"))
  },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.gen(function*() {
        const received = yield* Messaging.receiveMessage(input.from, input.message)
        yield* Output.print(input.json, received, (r) => [
          Format.message(r.message),
          ...(r.contact === undefined ? [] : [`  ${r.action}: ${Format.contact(r.contact)}`])
        ])
      })
    )
).pipe(Command.withDescription("Record an inbound SMS (MO); STOP-like keywords opt the sender out, START resubscribes"))
