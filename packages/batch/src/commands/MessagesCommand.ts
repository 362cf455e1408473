/**
 * `smsbook send`, `smsbook receive` and `smsbook messages list`: individual sends handed to the
 * carrier, inbound SMS with their keywords, and the message list with the filters of `GET /messages`.
 */
import { HttpDate, type Message, Messaging } from "@smsbook/core"
import { DateTime, Effect, Option, Result } from "effect"
import { Command, Flag } from "effect/cli"
import * as Common from "../GlobalFlags.ts"
import { describeContact } from "./ContactsCommand.ts"
import * as Output from "../Output.ts"


export const describeMessage = (message: Message.Message): string =>
  [
    message.created_on,
    message.direction,
    message.status.padEnd(10),
    message.msisdn ?? `group (${message.total_recipients} recipients, ${message.total_monitors} monitors)`,
    `${message.sent_count} SMS`,
    JSON.stringify(message.message)
  ].join("  ")

const send = Command.make(
  "send",
  {
    ...Common.flags,
    to: Flag.String("to").pipe(Flag.withDescription("Recipient MSISDN, e.g. 447400123456")),
    message: Flag.String("message").pipe(Flag.withDescription("Text, without the short-name prefix")),
    id: Common.optionalText("id", "External id (≤ 40 characters) for the anti-spam check")
  },
  (input) =>
    Common.withStore(
      input,
      Effect.gen(function*() {
        const sent = yield* Messaging.sendNow({
          msisdn: input.to,
          message: input.message,
          ...(Option.isSome(input.id) ? { id: input.id.value } : {})
        })
        yield* Output.print(input.json, sent, (m) => [describeMessage(m), `  message_id ${m.message_id ?? "-"}`])
      }),
      { needsShortName: true }
    )
).pipe(Command.withDescription("Send one SMS to one number (READY, then SENT once handed to the carrier)"))

const receive = Command.make(
  "receive",
  {
    ...Common.flags,
    from: Flag.String("from").pipe(Flag.withDescription("Sender MSISDN")),
    message: Flag.String("message").pipe(Flag.withDescription("The text received"))
  },
  (input) =>
    Common.withStore(
      input,
      Effect.gen(function*() {
        const received = yield* Messaging.receiveMessage(input.from, input.message)
        yield* Output.print(input.json, received, (r) => [
          describeMessage(r.message),
          ...(r.contact === undefined ? [] : [`  ${r.action}: ${describeContact(r.contact)}`])
        ])
      })
    )
).pipe(Command.withDescription("Record an inbound SMS (MO); STOP-like keywords opt the sender out, START resubscribes"))

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

export const filterFlags = {
  from: Common.optionalText("from", "Messages created from this time on (HTTP-date or ISO 8601)"),
  to: Common.optionalText("to", "Messages created up to this time (HTTP-date or ISO 8601)"),
  direction: Flag.Literals("direction", ["ALL", "MT", "MO"]).pipe(Flag.withDescription("Direction"), Flag.withDefault("ALL")),
  msisdn: Common.optionalText("msisdn", "Only messages to or from this number"),
  group: Common.optionalText("group", "Only group messages sent to this tag")
}

export interface FilterInput {
  readonly from: Option.Option<string>
  readonly to: Option.Option<string>
  readonly direction: string
  readonly msisdn: Option.Option<string>
  readonly group: Option.Option<string>
}

/** The query parameters of `GET /messages` the filter flags say. */
export const filterParameters = Effect.fnUntraced(function*(input: FilterInput) {
  return {
    ...(yield* dateParameter("start_date", input.from)),
    ...(yield* dateParameter("end_date", input.to)),
    direction: input.direction,
    ...(Option.isSome(input.msisdn) ? { misdn: input.msisdn.value } : {}),
    ...(Option.isSome(input.group) ? { group_short_name: input.group.value } : {})
  }
})

const list = Command.make(
  "list",
  {
    ...Common.flags,
    ...filterFlags,
    limit: Common.optionalText("limit", "Records to return (default 200, at most 1000)"),
    start: Common.optionalText("start", "Offset of the first record (default 0)")
  },
  (input) =>
    Common.withStore(
      input,
      Effect.gen(function*() {
        const messages = yield* Messaging.listMessages({
          ...(yield* filterParameters(input)),
          ...(Option.isSome(input.limit) ? { Limit: input.limit.value } : {}),
          ...(Option.isSome(input.start) ? { start: input.start.value } : {})
        })
        yield* Output.print(input.json, messages, (all) => all.length === 0 ? ["no messages"] : all.map(describeMessage))
      })
    )
).pipe(Command.withDescription("List messages, filtered as GET /messages"))

export const messagesCommand = Command.make("messages").pipe(
  Command.withDescription("Messages sent and received"),
  Command.withSubcommands([list])
)

export const sendCommand = send
export const receiveCommand = receive
