/**
 * The `smsbook` command: every subcommand, run with Node's services, with errors printed once
 * and turned into the exit codes of the command-line contract.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cause, Console, Effect, Exit } from "effect"
import { CliError, Command } from "effect/cli"
import * as BroadcastCommand from "./BroadcastCommand.ts"
import * as ContactsCommand from "./ContactsCommand.ts"
import * as ImportCommand from "./ImportCommand.ts"
import * as InspectCommand from "./InspectCommand.ts"
import * as MessagesCommand from "./MessagesCommand.ts"
import * as Output from "./Output.ts"
import * as ReportCommand from "./ReportCommand.ts"

export const smsbook = Command.make("smsbook").pipe(
  Command.withDescription("SMS messages and contacts: inspect, import, broadcast, send, report, contacts"),
  Command.withSubcommands([
    InspectCommand.command,
    ImportCommand.command,
    ContactsCommand.command,
    MessagesCommand.sendCommand,
    MessagesCommand.receiveCommand,
    MessagesCommand.messagesCommand,
    BroadcastCommand.command,
    ReportCommand.command
  ])
)

const version = "0.1.0"

/**
 * Runs the command line on `args` and resolves to the exit code: 0 done, 1 failed, 2 bad usage or
 * input, 3 too many rejected rows. Usage errors were already shown by the parser, with help.
 */
export const run = (args: ReadonlyArray<string>): Promise<Output.ExitCode> =>
  Command.runWith(smsbook, { version })(args).pipe(
    Effect.provide(NodeServices.layer),
    Effect.exit,
    Effect.flatMap((exit) => {
      if (Exit.isSuccess(exit)) return Effect.succeed(Output.ExitCode.done)
      const failure = Cause.findErrorOption(exit.cause)
      if (failure._tag === "None") {
        return Effect.as(Console.error(Cause.pretty(exit.cause)), Output.ExitCode.failed)
      }
      const error = failure.value
      if (CliError.isCliError(error)) {
        return Effect.succeed(error._tag === "ShowHelp" && error.errors.length === 0 ? Output.ExitCode.done : Output.ExitCode.badInput)
      }
      return Effect.as(Console.error(Output.describeError(error)), Output.exitCodeOf(error))
    }),
    Effect.runPromise
  )
