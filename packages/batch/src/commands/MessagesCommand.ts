/**
 * `smsbook messages list`: the messages sent and received, with the filters and paging of
 * `GET /messages`.
 */
import { Account, Messaging } from "@smsbook/core"
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
    limit: GlobalFlags.filterText("limit", "Records to return (default 200, at most 1000)", "leave --limit out for 200"),
    start: GlobalFlags.filterText("start", "Offset of the first record (default 0)", "leave --start out to start at the first")
  },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.gen(function*() {
        const account = yield* Account.Account
        const messages = yield* MessageFilter.quotingTyped(input)(
          GlobalFlags.namingFlags({ ...MessageFilter.flagNames, limit: "--limit", start: "--start" })(
            Messaging.listMessages({
              ...(yield* MessageFilter.parameters(input, account.time_zone)),
              ...(Option.isSome(input.limit) ? { Limit: input.limit.value } : {}),
              ...(Option.isSome(input.start) ? { start: input.start.value } : {})
            })
          )
        )
        yield* Output.print(input.json, messages, Format.messages)
      })
    )
).pipe(Command.withDescription("List messages, filtered as GET /messages"),
  Command.withExamples([
    { command: "smsbook messages list --since 2026-11-01 --direction MT", description: "Messages sent since 1 November (account time zone)" }
  ]))

export const command = Command.make("messages").pipe(
  Command.withDescription("Messages sent and received"),
  Command.withSubcommands([list])
)
