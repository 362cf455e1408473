/**
 * The `smsbook` command: every subcommand, run with Node's services, with errors printed once
 * and turned into the exit codes of the command-line contract.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cause, Console, Effect, Exit } from "effect"
import { CliError, Command } from "effect/cli"
import * as BroadcastCommand from "./commands/BroadcastCommand.ts"
import * as ContactsCommand from "./commands/ContactsCommand.ts"
import * as DispatchCommand from "./commands/DispatchCommand.ts"
import * as ImportCommand from "./commands/ImportCommand.ts"
import * as InspectCommand from "./commands/InspectCommand.ts"
import * as KeysCommand from "./commands/KeysCommand.ts"
import * as MessagesCommand from "./commands/MessagesCommand.ts"
import * as ReceiveCommand from "./commands/ReceiveCommand.ts"
import * as Output from "./Output.ts"
import * as ReportCommand from "./commands/ReportCommand.ts"
import * as SendCommand from "./commands/SendCommand.ts"
import * as ServeCommand from "./commands/ServeCommand.ts"
import manifest from "../package.json" with { type: "json" }

export const smsbook = Command.make("smsbook").pipe(
  Command.withDescription("SMS messages and contacts: inspect, import, broadcast, send, report, contacts"),
  Command.withSubcommands([
    InspectCommand.command,
    ImportCommand.command,
    ContactsCommand.command,
    SendCommand.command,
    ReceiveCommand.command,
    MessagesCommand.command,
    BroadcastCommand.command,
    ReportCommand.command,
    ServeCommand.command,
    DispatchCommand.command,
    KeysCommand.command
  ])
)

/** The installed package's own version, so `smsbook --version` follows every release. */
const version = manifest.version

/** Prints a failure (on stderr; also as JSON on stdout when `--json` was asked) and gives its exit code. */
const report = (error: unknown, asJson: boolean) =>
  Console.error(Output.describeError(error)).pipe(
    Effect.andThen(asJson ? Output.json(Output.errorJson(error)) : Effect.void),
    Effect.as(Output.exitCodeOf(error))
  )

/**
 * A flag followed by a value starting with `-` (`--message -5`): the parser takes that value for a flag, so the
 * usage error it gives is followed by the way out, `--message=-5`.
 */
export const dashValueHint = (args: ReadonlyArray<string>): string | undefined => {
  for (let i = 0; i + 1 < args.length; i++) {
    const flag = args[i] ?? ""
    const value = args[i + 1] ?? ""
    if (/^--[a-z][a-z-]*$/.test(flag) && value.startsWith("-") && value !== "-" && !/^--[a-z][a-z-]*(=|$)/.test(value)) {
      return `a value starting with "-" must be joined to its flag with "=": ${flag}=${value}`
    }
  }
  return undefined
}

/**
 * The command line on `args`, as an effect that always succeeds with the exit code: 0 done,
 * 1 failed, 2 bad usage or input, 3 too many rejected rows. Usage errors were already shown by
 * the parser, with help.
 */
export const program = (args: ReadonlyArray<string>): Effect.Effect<Output.ExitCode> =>
  swallowedValue(args) !== undefined
    ? Effect.as(Console.error(Output.describeHint(swallowedValue(args) ?? "")), Output.ExitCode.badInput)
    : run(args)

/**
 * `--message -hi`: the parser would read the value as the flags `-h -i` and show help, so nothing is sent and
 * the exit is 0. Someone asking for help writes `-h` alone; a longer word starting `-h` or `-v` right after a
 * flag is a value, refused (exit 2) with the way to write it.
 */
const swallowedValue = (args: ReadonlyArray<string>): string | undefined => {
  const at = args.findIndex((arg, i) => i > 0 && /^-[hv]./.test(arg) && /^--[a-z][a-z-]*$/.test(args[i - 1] ?? ""))
  return at < 0 ? undefined : `${args[at - 1]} ${args[at]} is read as flags: ${dashValueHint(args.slice(at - 1)) ?? ""}`
}

const run = (args: ReadonlyArray<string>): Effect.Effect<Output.ExitCode> =>
  Command.runWith(smsbook, { version })(args).pipe(
    Effect.provide(NodeServices.layer),
    Effect.exit,
    Effect.flatMap((exit) => {
      if (Exit.isSuccess(exit)) return Effect.succeed(Output.ExitCode.done)
      const failure = Cause.findErrorOption(exit.cause)
      if (failure._tag === "None") {
        return Cause.hasInterruptsOnly(exit.cause)
          ? Effect.as(Console.error("interrupted: nothing half-written was kept"), Output.ExitCode.failed)
          : Effect.as(Console.error(Output.describeError(Cause.squash(exit.cause))), Output.ExitCode.failed)
      }
      const error = failure.value
      if (CliError.isCliError(error)) {
        if (error._tag === "ShowHelp" && error.errors.length === 0) return Effect.succeed(Output.ExitCode.done)
        const hint = dashValueHint(args)
        return Effect.as(hint === undefined ? Effect.void : Console.error(Output.describeHint(hint)), Output.ExitCode.badInput)
      }
      return report(error, args.includes("--json"))
    })
  )

/** Runs the command line as the process: Ctrl-C interrupts it, so finalizers run (transactions roll back, partial files go) before it exits. */
export const main = (args: ReadonlyArray<string>): void =>
  NodeRuntime.runMain(program(args), {
    disableErrorReporting: true,
    teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) && typeof exit.value === "number" ? exit.value : Output.ExitCode.failed)
  })
