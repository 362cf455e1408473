/**
 * The broadcast job: one text to every contact of some tags, either straight from the flags or
 * from a reviewed plan file, summarised as `--json` prints it.
 */
import { Account, InvalidField, Message, MessageStore, Messaging } from "@smsbook/core"
import { Effect, Option } from "effect"
import * as Interruption from "../internal/interruption.ts"
import * as MessageText from "../internal/messageText.ts"
import { idOf } from "../internal/broadcastId.ts"
import * as BroadcastPlan from "./BroadcastPlan.ts"

/**
 * The SQLite page cache a broadcast asks for, KiB: it walks the audience in key order and appends deliveries and
 * outbox rows in key order, so pages are touched once and a large cache only holds memory (64 MiB by default).
 */
export const cacheKiB = 8192

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

/**
 * The text of `--message` or `--message-file` (decoded as UTF-8 or `--encoding`, one trailing line end dropped);
 * exactly one must be given, and it must be valid Unicode and not blank (see `internal/messageText.ts`).
 */
export const messageText = (input: {
  readonly message: Option.Option<string>
  readonly messageFile: Option.Option<string>
  readonly encoding?: Option.Option<string>
}) => {
  if (Option.isSome(input.message) && Option.isSome(input.messageFile)) {
    return Effect.fail(new InvalidField({ field: "--message-file", value: input.messageFile.value, reason: "give --message or --message-file, not both" }))
  }
  if (Option.isSome(input.message)) return Effect.fromResult(Message.checkText(input.message.value, "--message"))
  if (Option.isSome(input.messageFile)) {
    return MessageText.readFile(input.messageFile.value, input.encoding === undefined ? undefined : Option.getOrUndefined(input.encoding))
  }
  return Effect.fail(new InvalidField({ field: "--message", value: "", reason: "is required (or --message-file)" }))
}

/**
 * Runs a broadcast noting, batch by batch, what an interruption would leave: the members already handed the message
 * stay handed it, and the same command run again resumes the message without sending anyone a second copy.
 */
const resumable = <A, E, R>(broadcast: Effect.Effect<A, E, R>) =>
  Effect.sync(() => Interruption.keep("nobody had been handed the message yet")).pipe(
    Effect.andThen(broadcast),
    Effect.provideService(Messaging.HandOverProgress, (messageId, handedOver) =>
      Interruption.keep(
        `broadcast ${messageId}: ${handedOver} member(s) had been handed the message in this run, and keep it; the others had not yet`
      ))
  )

/**
 * Sends the request now, under its `idOf`. A digest id already used by a finished broadcast within the spam
 * period is the same broadcast sent again: refused as a duplicate (`DUPLICATE_SEND`, as the interface's anti-spam
 * rule says), with a hint of the way to send it on purpose.
 */
export const send = Effect.fnUntraced(function*(request: BroadcastPlan.Request, options: { readonly allowEmpty: boolean }) {
  const account = yield* Account.Account
  const id = idOf(request, account.short_name)
  return sentSummary(yield* resumable(Messaging.broadcast({ ...request, id }, options)))
})

/**
 * Until 2026-11-27 a plan without an id was sent under `plan-` and 35 hex digits of its seal. A plan sent so keeps that
 * id: running it again resumes a send left unfinished, and is refused as a duplicate within the spam period of one
 * that finished, rather than sending everybody a second copy under the new id.
 */
const legacyId = Effect.fnUntraced(function*(plan: BroadcastPlan.Summary) {
  if (plan.id !== undefined) return undefined
  const legacy = `plan-${plan.plan_sha256.slice(0, 35)}`
  return Option.isSome(yield* (yield* MessageStore.MessageStore).findById(legacy)) ? legacy : undefined
})

/** Sends exactly the plan at `path`, once it is verified, under the id the same broadcast sent directly has. */
export const sendPlan = Effect.fnUntraced(function*(path: string, options: { readonly allowEmpty: boolean }) {
  const plan = yield* BroadcastPlan.verify(path, options)
  const id = (yield* legacyId(plan)) ?? idOf(plan, plan.short_name)
  return sentSummary(yield* resumable(Messaging.broadcast({ tags: plan.tags, message: plan.message, id }, options)))
})
