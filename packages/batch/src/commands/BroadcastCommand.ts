/**
 * `smsbook broadcast`: one text to every contact of some tags. `--dry-run` resolves and reports
 * (and with `--plan FILE` writes a sealed plan); `--plan FILE` alone sends exactly that plan.
 */
import { InvalidField, InvalidParameter, type Message, Messaging } from "@smsbook/core"
import { Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import * as fs from "node:fs"
import * as Common from "../GlobalFlags.ts"
import * as Output from "../Output.ts"
import * as Plan from "../jobs/BroadcastPlan.ts"


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

const describeSent = (sent: Sent) => [
  `${sent.status}: message ${sent.message_id}${sent.resumed ? " (resumed)" : ""}`,
  `  ${sent.recipients} recipients + ${sent.monitors} monitors × ${sent.segments} segment(s) = ${sent.sent_count} SMS`,
  `  handed over to ${sent.handed_over} numbers in this run, ${sent.error_count} SMS failed`
]

const describePlan = (plan: Plan.Summary) => [
  `would send ${JSON.stringify(plan.prefixed)}`,
  `  ${plan.encoding}, ${plan.segments} segment(s) per recipient`,
  `  ${plan.recipients} recipients + ${plan.monitors} monitors = ${plan.sent_count} SMS`,
  ...plan.ucs2_characters.map(({ char, suggestion }) =>
    `  ${JSON.stringify(char)} forces UCS-2${suggestion === undefined ? "" : `; use ${JSON.stringify(suggestion)}`}`
  ),
  `  audience sha256 ${plan.audience_sha256}`
]

const messageText = (input: { readonly message: Option.Option<string>; readonly messageFile: Option.Option<string> }) => {
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

export const command = Command.make(
  "broadcast",
  {
    ...Common.flags,
    tags: Common.optionalText("tags", "Comma-separated tags: every subscribed contact carrying one receives the text"),
    message: Common.optionalText("message", "The text, without the short-name prefix"),
    messageFile: Common.optionalText("message-file", "Read the text from this file (UTF-8)"),
    id: Common.optionalText("id", "External id: the anti-spam key, and what resumes an interrupted send"),
    dryRun: Flag.Boolean("dry-run").pipe(Flag.withDescription("Resolve and report; send nothing"), Flag.withDefault(false)),
    plan: Common.optionalText("plan", "With --dry-run: write the plan here. Alone: send exactly this plan"),
    allowEmpty: Flag.Boolean("allow-empty").pipe(
      Flag.withDescription("Send even when no contact would receive it"),
      Flag.withDefault(false)
    )
  },
  (input) =>
    Common.withStore(
      input,
      Effect.gen(function*() {
        if (Option.isSome(input.plan) && !input.dryRun) {
          const given: ReadonlyArray<readonly [string, Option.Option<string>]> = [
            ["--tags", input.tags],
            ["--message", input.message],
            ["--message-file", input.messageFile],
            ["--id", input.id]
          ]
          const stray = given.find(([, value]) => Option.isSome(value))
          if (stray !== undefined) {
            return yield* new InvalidParameter({
              parameter: stray[0],
              value: input.plan.value,
              reason: "cannot be combined with --plan: a plan is sent exactly as reviewed (add --dry-run to make a new plan)"
            })
          }
          const plan = yield* Plan.verify(input.plan.value, { allowEmpty: input.allowEmpty })
          // A plan without an id sends under one derived from its seal: sending it twice is refused
          // by the anti-spam check, and an interrupted send of it resumes.
          const id = plan.id ?? `plan-${plan.plan_sha256.slice(0, 35)}`
          const result = yield* Messaging.broadcast({ tags: plan.tags, message: plan.message, id }, { allowEmpty: input.allowEmpty })
          return yield* Output.print(input.json, sentSummary(result), describeSent)
        }
        const request = {
          allowEmpty: input.allowEmpty,
          tags: Option.match(input.tags, { onNone: () => [], onSome: Common.splitList }),
          message: yield* messageText(input),
          ...(Option.isSome(input.id) ? { id: input.id.value } : {})
        }
        if (input.dryRun) {
          const plan = Option.isSome(input.plan) ? yield* Plan.write(request, input.plan.value) : yield* Plan.resolve(request)
          return yield* Output.print(input.json, { ...plan, dry_run: true }, (p) => [
            ...describePlan(p),
            ...(Option.isSome(input.plan) ? [`plan written to ${input.plan.value}; send it with --plan ${input.plan.value}`] : [])
          ])
        }
        const result = yield* Messaging.broadcast(request, { allowEmpty: input.allowEmpty })
        yield* Output.print(input.json, sentSummary(result), describeSent)
      }),
      { needsShortName: true }
    )
).pipe(
  Command.withDescription("Send one text to every contact of some tags (PENDING → PROCESSING → READY → SENT)"),
  Command.withExamples([
    { command: "smsbook broadcast --tags news --message \"Shop opens at 9\" --dry-run --plan plan.json", description: "Review first" },
    { command: "smsbook broadcast --plan plan.json", description: "Send exactly the reviewed plan" }
  ])
)
