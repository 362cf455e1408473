/**
 * `smsbook broadcast`: one text to every contact of some tags. `--dry-run` resolves and reports
 * (and with `--plan FILE` writes a sealed plan); `--plan FILE` alone sends exactly that plan.
 */
import { InvalidParameter } from "@smsbook/core"
import { Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import * as Format from "../Format.ts"
import * as GlobalFlags from "../GlobalFlags.ts"
import * as OutputPath from "../internal/outputPath.ts"
import * as Broadcast from "../jobs/Broadcast.ts"
import * as BroadcastPlan from "../jobs/BroadcastPlan.ts"
import * as Output from "../Output.ts"

export const command = Command.make(
  "broadcast",
  {
    ...GlobalFlags.flags,
    tags: GlobalFlags.optionalText("tags", "Comma-separated tags: every subscribed contact carrying one receives the text"),
    message: GlobalFlags.optionalText("message", "The text, without the short-name prefix"),
    messageFile: GlobalFlags.optionalText("message-file", "Read the text from this file (UTF-8 unless --encoding; - is standard input)"),
    encoding: GlobalFlags.optionalText("encoding", "Encoding of --message-file (windows-1252, utf-16le…); default UTF-8"),
    id: GlobalFlags.optionalText("id", "External id: the anti-spam key, and what resumes an interrupted send"),
    dryRun: Flag.Boolean("dry-run").pipe(Flag.withDescription("Resolve and report; send nothing"), Flag.withDefault(false)),
    plan: GlobalFlags.optionalText("plan", "With --dry-run: write the plan here. Alone: send exactly this plan (- is standard output, then input)"),
    allowEmpty: Flag.Boolean("allow-empty").pipe(
      Flag.withDescription("Send even when no contact would receive it"),
      Flag.withDefault(false)
    )
  },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.gen(function*() {
        if (Option.isSome(input.plan) && !input.dryRun) {
          const given: ReadonlyArray<readonly [string, Option.Option<string>]> = [
            ["--tags", input.tags],
            ["--message", input.message],
            ["--message-file", input.messageFile],
            ["--id", input.id],
            ["--encoding", input.encoding]
          ]
          const stray = given.find(([, value]) => Option.isSome(value))
          if (stray !== undefined) {
            return yield* new InvalidParameter({
              parameter: stray[0],
              value: input.plan.value,
              reason: "cannot be combined with --plan: a plan is sent exactly as reviewed (add --dry-run to make a new plan)"
            })
          }
          return yield* Output.print(input.json, yield* Broadcast.sendPlan(input.plan.value, { allowEmpty: input.allowEmpty }), Format.broadcastSent)
        }
        const request = {
          allowEmpty: input.allowEmpty,
          tags: Option.match(input.tags, { onNone: () => [], onSome: GlobalFlags.splitList }),
          message: yield* Broadcast.messageText(input),
          ...(Option.isSome(input.id) ? { id: input.id.value } : {})
        }
        if (input.dryRun && Option.isNone(input.plan)) {
          return yield* Output.print(input.json, { ...(yield* BroadcastPlan.resolve(request)), dry_run: true }, Format.broadcastPlan)
        }
        if (input.dryRun && Option.isSome(input.plan)) {
          // A plan for standard output (`-`, `/dev/stdout`…) is written there as an export is: with --json it is the
          // document, and its summary goes to stderr.
          const out = input.plan.value
          const plan = yield* Output.exporting(input.json, out, BroadcastPlan.write(request, Output.exportOut(out)))
          return yield* Output.exported(input.json, out, { ...plan, dry_run: true }, (p) => [
            ...Format.broadcastPlan(p),
            OutputPath.isStandardOutput(out) ? "plan written to standard output" : `plan written to ${out}; send it with --plan ${out}`
          ])
        }
        yield* Output.print(input.json, yield* Broadcast.send(request, { allowEmpty: input.allowEmpty }), Format.broadcastSent)
      }),
      {
        needsShortName: true,
        cacheKiB: Broadcast.cacheKiB,
        // Only a dry run writes the plan; alone, --plan is read.
        check: (store) =>
          input.dryRun && Option.isSome(input.plan)
            ? OutputPath.ensureDistinct("--plan", input.plan.value, [
              ...(Option.isSome(input.messageFile) ? [{ role: "the --message-file", path: input.messageFile.value }] : []),
              ...OutputPath.storeFiles(store)
            ])
            : Effect.void
      }
    ).pipe(
      // What a stop leaves, as it is: an unfinished message is not cancelled, and a dispatcher completes it (the
      // dispatchers hand every unfinished group message over; see docs/decisions.md, "Broadcasts").
      Effect.onInterrupt(() =>
        Output.notes(input.dryRun ? ["interrupted: a dry run sends nothing; nothing was sent."] : [
          "interrupted: the broadcast stopped. Members already handed to the carrier keep their SMS; the others were not sent yet.",
          "Its message, if it was recorded, stays unfinished and is not cancelled: the next `smsbook dispatch` hands it to the rest, " +
          "as the same command run again does (nobody gets it twice)."
        ]))
    )
).pipe(
  Command.withDescription("Send one text to every contact of some tags (PENDING → PROCESSING → READY → SENT)"),
  Command.withExamples([
    {
      command: "smsbook broadcast --tags news --message \"Shop opens at 9\" --short-name ACME --dry-run --plan plan.json",
      description: "Review first (the short name can also come from smsbook.json or SMSBOOK_SHORT_NAME)"
    },
    { command: "smsbook broadcast --plan plan.json --short-name ACME --allow-empty", description: "Send exactly the reviewed plan" }
  ])
)
