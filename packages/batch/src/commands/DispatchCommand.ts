/**
 * `smsbook dispatch [--tps N] [--once] [--carrier URL]`: hands READY and PENDING messages over and
 * drains the outbox to the configured carrier, keeping the bind for receipts and inbound SMS.
 */
import { Account, InvalidField, InvalidParameter } from "@smsbook/core"
import { CarrierConfig, Dispatcher } from "@smsbook/carrier"
import * as PartStore from "@smsbook/store/PartStore"
import { Console, Effect, Layer, Option } from "effect"
import { Command, Flag } from "effect/cli"
import * as GlobalFlags from "../GlobalFlags.ts"
import * as Interruption from "../internal/interruption.ts"
import * as Output from "../Output.ts"
import * as Settings from "../Settings.ts"

/** Warnings go to stderr, one line each: stdout keeps the one summary (`--json`: one document). */
const warnOnStderr = (notice: Dispatcher.Notice) => {
  if (Dispatcher.isWarning(notice)) process.stderr.write(`dispatch: ${JSON.stringify(notice)}\n`)
}

/** Refuses (exit 2) a flag's value below zero. */
const nonNegative = (flag: string, value: number | undefined) =>
  value !== undefined && value < 0
    ? Effect.fail(new InvalidParameter({ parameter: flag, value: String(value), reason: "must be 0 or more" }))
    : Effect.void

export const command = Command.make(
  "dispatch",
  {
    ...GlobalFlags.flags,
    defaultCountry: GlobalFlags.defaultCountry,
    carrier: GlobalFlags.settingText("carrier", "SMSBOOK_CARRIER", "Carrier URL smpp://system_id:password@host:port?tps=… or kannel://user:password@host:port?callback=…"),
    tps: Flag.Int("tps").pipe(Flag.withDescription("Most SMS parts per second on the bind (0: no limit; overrides the URL's tps)"), Flag.optional),
    once: Flag.Boolean("once").pipe(Flag.withDescription("Stop once nothing is left to send and the receipts are in"), Flag.withDefault(false)),
    receiptWait: Flag.Int("receipt-wait").pipe(
      Flag.withDescription("With --once: seconds to wait for the receipts of what was sent"),
      Flag.withDefault(10)
    ),
    doubtWait: Flag.Int("doubt-wait").pipe(
      Flag.withDescription("Seconds a part a killed dispatcher left unanswered on the wire waits for a receipt before it is sent again"),
      Flag.withDefault(Dispatcher.defaults.doubtMs / 1000)
    )
  },
  (input) =>
    Effect.gen(function*() {
      // A negative rate read as "no limit" on the bind, where the URL's `tps=-5` is refused: the flags are checked alike.
      yield* nonNegative("--tps", Option.getOrUndefined(input.tps))
      yield* nonNegative("--receipt-wait", input.receiptWait)
      yield* nonNegative("--doubt-wait", input.doubtWait)
      const given: Settings.Given = { ...(yield* GlobalFlags.given(input)), carrier: Option.getOrUndefined(input.carrier) }
      const resolved = yield* Settings.load(given, { needsShortName: true })
      // Dispatch drains an existing book: a mistyped --store is refused, never created.
      yield* GlobalFlags.checkResolvedStore(resolved, { create: false })
      const defaultCountry = yield* GlobalFlags.checkedCountry(input.defaultCountry)
      const base = Layer.merge(Account.layer(resolved.account), GlobalFlags.storeLayer(resolved))
      if (resolved.carrier === undefined) {
        const processed = yield* Effect.provide(Dispatcher.processMessages(), base)
        return yield* Output.print(input.json, { carrier: "outbox", messages: processed }, () => [
          `no carrier configured (SMSBOOK_CARRIER=smpp://… or kannel://…): ${processed} message(s) handed to the outbox, where parts stay`
        ])
      }
      const tps = Option.getOrUndefined(input.tps)
      // A refused URL is named where it was said: `--carrier`, `SMSBOOK_CARRIER` or `smsbook.json: carrier`.
      const config = yield* Effect.fromResult(CarrierConfig.parse(resolved.carrier, tps === undefined ? {} : { tps })).pipe(
        Effect.catchIf((error) => error instanceof InvalidField && error.field === "carrier", (error) =>
          Effect.flatMap(Settings.fileSettings, (file) =>
            Effect.fail(new InvalidField({ field: Settings.origin("carrier", given, file), value: error.value, reason: error.reason }))))
      )
      const senderProblem = CarrierConfig.senderProblem(config, resolved.account.short_code)
      if (senderProblem !== undefined) {
        const file = yield* Settings.fileSettings
        return yield* new InvalidField({ field: Settings.origin("short_code", given, file), value: resolved.account.short_code, reason: senderProblem })
      }
      if (!input.json) yield* Console.error(`dispatching to ${CarrierConfig.mask(resolved.carrier)}${input.once ? " until drained" : " (Ctrl-C stops)"}`)
      // Parts go out one by one and each is recorded: a stop keeps what was sent (not the rolled-back line of a job).
      Interruption.keep("parts already submitted to the carrier stay sent and recorded; the others wait, and the next dispatch sends them, each once")
      const summary = yield* Dispatcher.run(config, {
        ...Dispatcher.defaults,
        dispatcher: PartStore.thisProcess(),
        once: input.once,
        receiptWaitMs: input.receiptWait * 1000,
        doubtMs: input.doubtWait * 1000,
        defaultCountry
      }, warnOnStderr).pipe(Effect.provide(Layer.merge(base, PartStore.layer(resolved.store, GlobalFlags.storeOptions(resolved)))))
      yield* Output.print(input.json, { carrier: CarrierConfig.mask(resolved.carrier), ...summary }, (s) => [
        `messages handed over: ${s.messages}`,
        `parts submitted: ${s.submitted}, refused: ${s.refused}`,
        `receipts: ${s.receipts} (failed ${s.failedReceipts}, unknown ${s.unknownReceipts})`,
        `inbound SMS: ${s.inbound}`,
        ...(s.cancelled > 0 ? [`parts not sent, their number opted out: ${s.cancelled}`] : []),
        ...(s.requeued + s.inDoubt > 0
          ? [`parts of a stopped dispatcher: ${s.requeued} never written (sent now), ${s.inDoubt} unanswered (settled by receipts, ${s.resent} sent again)`]
          : [])
      ])
    })
).pipe(Command.withDescription("Send READY messages to the carrier (SMSBOOK_CARRIER) and take receipts and inbound SMS"))
