/**
 * `smsbook messages list`: the messages sent and received, with the filters and paging of
 * `GET /messages`.
 */
import { Messaging } from "@smsbook/core"
import { Effect, Option } from "effect"
import { Command } from "effect/cli"
import * as Format from "../Format.ts"
import * as GlobalFlags from "../GlobalFlags.ts"
import * as MessageFilter from "../MessageFilter.ts"
import * as Output from "../Output.ts"

const list = Command.make(
  "list",
  {
    ...GlobalFlags.flags,
    ...MessageFilter.flags,
    limit: GlobalFlags.optionalText("limit", "Records to return (default 200, at most 1000)"),
    start: GlobalFlags.optionalText("start", "Offset of the first record (default 0)")
  },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.gen(function*() {
        const messages = yield* Messaging.listMessages({
          ...(yield* MessageFilter.parameters(input)),
          ...(Option.isSome(input.limit) ? { Limit: input.limit.value } : {}),
          ...(Option.isSome(input.start) ? { start: input.start.value } : {})
        })
        yield* Output.print(input.json, messages, (all) => all.length === 0 ? ["no messages"] : all.map(Format.message))
      })
    )
).pipe(Command.withDescription("List messages, filtered as GET /messages"))

export const command = Command.make("messages").pipe(
  Command.withDescription("Messages sent and received"),
  Command.withSubcommands([list])
)
