/**
 * The message filter flags `messages list` and `report` share (`--from/--to`, `--direction`,
 * `--msisdn`, `--group`), read into the query parameters of `GET /messages`.
 */
import { HttpDate, Query } from "@smsbook/core"
import { DateTime, Effect, Option, Result } from "effect"
import { Flag } from "effect/cli"
import * as GlobalFlags from "./GlobalFlags.ts"

const dateOnly = /^\s*\d{4}-\d{2}-\d{2}\s*$/

/**
 * `--from/--to` as an HTTP-date or ISO 8601, handed on as the HTTP-date `GET /messages` takes.
 * A date alone is a whole day: `--from` its first second, `--to` its last.
 */
export const dateParameter = (name: "start_date" | "end_date", value: Option.Option<string>) =>
  Option.isNone(value) ? Effect.succeed({}) : Effect.fromResult(
    Result.map(HttpDate.parseFlexible(value.value), (date: DateTime.Utc) => {
      const bound = name === "end_date" && dateOnly.test(value.value) ? DateTime.add(date, { seconds: 86_399 }) : date
      return { [name]: HttpDate.format(bound) }
    })
  )

export const flags = {
  from: GlobalFlags.optionalText("from", "Messages created from this time on (HTTP-date or ISO 8601)"),
  to: GlobalFlags.optionalText("to", "Messages created up to this time (HTTP-date or ISO 8601)"),
  direction: Flag.Literals("direction", ["ALL", "MT", "MO"]).pipe(Flag.withDescription("Direction"), Flag.withDefault("ALL")),
  msisdn: GlobalFlags.optionalText("msisdn", "Only messages to or from this number"),
  group: GlobalFlags.optionalText("group", "Only group messages sent to this tag")
}

export interface Input {
  readonly from: Option.Option<string>
  readonly to: Option.Option<string>
  readonly direction: string
  readonly msisdn: Option.Option<string>
  readonly group: Option.Option<string>
}

/** The query parameters of `GET /messages` the filter flags say. */
export const parameters = Effect.fnUntraced(function*(input: Input) {
  return {
    ...(yield* dateParameter("start_date", input.from)),
    ...(yield* dateParameter("end_date", input.to)),
    direction: input.direction,
    ...(Option.isSome(input.msisdn) ? { misdn: input.msisdn.value } : {}),
    ...(Option.isSome(input.group) ? { group_short_name: input.group.value } : {})
  }
})

/** The store filter the flags say, checked exactly as `GET /messages` checks it; paging does not apply. */
export const filter = Effect.fnUntraced(function*(input: Input) {
  const { limit: _, start: __, ...filter } = yield* Effect.fromResult(Query.messages(yield* parameters(input)))
  return filter
})
