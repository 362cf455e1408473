/**
 * The broadcast job: one text to every contact of some tags, either straight from the flags or
 * from a reviewed plan file, summarised as `--json` prints it.
 */
import { InvalidField, type Message, Messaging } from "@smsbook/core"
import { Effect, Option } from "effect"
import * as fs from "node:fs"
import * as BroadcastPlan from "./BroadcastPlan.ts"

/** The summary of a send, as `--json` prints it. */
export interface Sent {
  readonly message_id: string
  readonly recipients: number
  readonly monitors: number
  readonly segments: number
  readonly sent_count: number
  readonly error_count: number
  readonly status: Message.Status
  readonly handed_over: number
  readonly resumed: boolean
}

const sentSummary = (result: Messaging.Broadcast): Sent => ({
  message_id: result.message.message_id,
  recipients: result.message.total_recipients,
  monitors: result.message.total_monitors,
  segments: result.message.segments,
  sent_count: result.message.sent_count,
  error_count: result.message.error_count,
  status: result.message.status,
  handed_over: result.handedOver,
  resumed: result.resumed
})

/** The text of `--message` or `--message-file` (one trailing line end dropped); exactly one must be given. */
export const messageText = (input: { readonly message: Option.Option<string>; readonly messageFile: Option.Option<string> }) => {
  if (Option.isSome(input.message) && Option.isSome(input.messageFile)) {
    return Effect.fail(new InvalidField({ field: "--message-file", value: input.messageFile.value, reason: "give --message or --message-file, not both" }))
  }
  if (Option.isSome(input.message)) return Effect.succeed(input.message.value)
  if (Option.isSome(input.messageFile)) {
    const path = input.messageFile.value
    return Effect.try({
      try: () => fs.readFileSync(path, "utf8").replace(/\r?\n$/, ""),
      catch: (cause) => new InvalidField({ field: "--message-file", value: path, reason: `cannot be read: ${String(cause)}` })
    })
  }
  return Effect.fail(new InvalidField({ field: "--message", value: "", reason: "is required (or --message-file)" }))
}

/** Sends the request now. */
export const send = (request: BroadcastPlan.Request, options: { readonly allowEmpty: boolean }) =>
  Effect.map(Messaging.broadcast(request, options), sentSummary)

/**
 * Sends exactly the plan at `path`, once it is verified. A plan without an id sends under one derived
 * from its seal: sending it twice is refused by the anti-spam check, and an interrupted send of it resumes.
 */
export const sendPlan = Effect.fnUntraced(function*(path: string, options: { readonly allowEmpty: boolean }) {
  const plan = yield* BroadcastPlan.verify(path, options)
  const id = plan.id ?? `plan-${plan.plan_sha256.slice(0, 35)}`
  return sentSummary(yield* Messaging.broadcast({ tags: plan.tags, message: plan.message, id }, options))
})
