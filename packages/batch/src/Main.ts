/**
 * The `smsbook` command: every subcommand, run with Node's services, with errors printed once
 * and turned into the exit codes of the command-line contract.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cause, Console, Effect, Exit, Option } from "effect"
import { CliError, CliOutput, Command } from "effect/cli"
import * as CliErrors from "./CliErrors.ts"
import * as EarlySignals from "./internal/earlySignals.ts"
import { exitWhenWritten } from "./internal/exitWhenWritten.ts"
import * as FailureHint from "./internal/failureHint.ts"
import * as Files from "./internal/files.ts"
import * as Interruption from "./internal/interruption.ts"
import manifest from "../package.json" with { type: "json" }
import * as Output from "./Output.ts"

/**
 * The subcommands in the order help lists them, each module loaded only when it is needed: a run loads the one
 * command it names, not twelve (the HTTP server's and the carrier's modules alone cost more than the rest).
 */
const commands = {
  init: () => import("./commands/InitCommand.ts"),
  inspect: () => import("./commands/InspectCommand.ts"),
  import: () => import("./commands/ImportCommand.ts"),
  contacts: () => import("./commands/ContactsCommand.ts"),
  suppressions: () => import("./commands/SuppressionsCommand.ts"),
  send: () => import("./commands/SendCommand.ts"),
  receive: () => import("./commands/ReceiveCommand.ts"),
  messages: () => import("./commands/MessagesCommand.ts"),
  broadcast: () => import("./commands/BroadcastCommand.ts"),
  report: () => import("./commands/ReportCommand.ts"),
  serve: () => import("./commands/ServeCommand.ts"),
  dispatch: () => import("./commands/DispatchCommand.ts"),
  keys: () => import("./commands/KeysCommand.ts")
}

export type CommandName = keyof typeof commands

/** Every subcommand's name, in help order. */
export const commandNames: ReadonlyArray<CommandName> = ["init", "inspect", "import", "contacts", "suppressions", "send", "receive", "messages", "broadcast", "report", "serve", "dispatch", "keys"]

const isCommandName = (text: string): text is CommandName => commandNames.some((name) => name === text)

/**
 * The subcommands a run of `args` needs: the one its first word names, none for `--version` alone; anything else
 * (`--help`, a mistyped command) needs them all, so help and the suggestions list every command.
 */
export const needed = (args: ReadonlyArray<string>): ReadonlyArray<CommandName> => {
  const first = args[0]
  if (args.length === 1 && (first === "--version" || first === "-v")) return []
  return first !== undefined && isCommandName(first) ? [first] : commandNames
}

/** The `smsbook` command with the subcommands `names` (loaded now). */
export const root = (names: ReadonlyArray<CommandName> = commandNames) =>
  Effect.map(
    Effect.promise(() => Promise.all(names.map((name) => commands[name]().then((module) => module.command)))),
    (subcommands) =>
      Command.make("smsbook").pipe(
        Command.withDescription("SMS messages and contacts: init, inspect, import, contacts, suppressions, send, broadcast, report"),
        Command.withSubcommands(subcommands)
      )
  )

/** The installed package's own version, so `smsbook --version` follows every release. */
export const version = manifest.version

/**
 * `--json` with a value the flag's parser reads as true (effect/cli's `Primitive.Boolean`), in any case: the parser
 * refuses `--json=TRUE`, and one who wrote it gets that usage error as a JSON document.
 */
const jsonFlag = /^--json(?:=(?:true|1|y|yes|on))?$/i

/** The values the flag's parser reads as false, also when they follow a bare `--json` as the next argument. */
const falseValue = /^(?:false|0|n|no|off)$/

/** The arguments before a `--` end of flags (after it, `--json` is a value). */
const beforeEnd = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  const end = args.indexOf("--")
  return end === -1 ? args : args.slice(0, end)
}

/**
 * Whether the arguments ask for JSON as the parser will read them: `--json` (or `--json=yes` and the other true
 * values; not `--json false`) before a `--` end of flags. Read before the parser runs, so that its own errors come out
 * as one document too.
 */
export const wantsJson = (args: ReadonlyArray<string>): boolean => {
  const flags = beforeEnd(args)
  return flags.some((arg, at) => jsonFlag.test(arg) && !(arg === "--json" && falseValue.test(flags[at + 1] ?? "")))
}

const plain = CliOutput.defaultFormatter({ colors: false })

/**
 * Where effect/cli's own output goes. Help asked for goes to stdout, or with `--json` to stderr with a
 * `{"help": …}` document on stdout; a usage error's help and reasons always go to stderr, so a
 * script's stdout never holds help it did not ask for.
 */
const presenter = (asJson: boolean): CliOutput.Presenter => ({
  present: (event) => {
    switch (event._tag) {
      case "Help": {
        const text = plain.formatHelpDoc(event.helpDoc)
        return asJson
          ? Effect.andThen(Console.error(text), Output.json({ help: { command: event.commandPath.join(" "), text } }))
          : CliOutput.defaultPresenter.present(event)
      }
      case "InvalidInvocation":
        return Effect.andThen(Console.error(plain.formatHelpDoc(event.helpDoc)), Console.error(plain.formatErrors(event.errors)))
      case "Version":
        return asJson ? Output.json({ version: event.version }) : CliOutput.defaultPresenter.present(event)
    }
  }
})

/**
 * The flag or argument a usage error is about, as the user would type it: a flag with its dashes, an argument in
 * capitals as the synopsis writes it (`TEXT`, `MSISDN`, `FILE`), as every other refusal of it names it.
 */
const usageField = (error: CliError.CliError): string | undefined => {
  switch (error._tag) {
    case "UnrecognizedOption":
    case "MissingOption":
    case "DuplicateOption":
    case "InvalidValue":
      if (error._tag === "InvalidValue" && error.kind === "argument") return error.option.toUpperCase()
      return error.option.startsWith("-") ? error.option : `--${error.option}`
    case "MissingArgument":
      return error.argument.toUpperCase()
    case "UnknownSubcommand":
      return error.subcommand
    default:
      return undefined
  }
}

/** effect/cli's usage errors as one `Usage` error: the first reason (all of them joined), its flag. */
export const usageError = (error: CliError.CliError): CliErrors.Usage => {
  const errors = error._tag === "ShowHelp" ? error.errors : [error]
  const first = errors[0]
  const field = first === undefined ? undefined : usageField(first)
  return new CliErrors.Usage({
    reason: errors.length === 0 ? "a subcommand is needed (see --help)" : errors.map((e) => e.message.split("\n")[0]).join("; "),
    ...(field === undefined ? {} : { field })
  })
}

/**
 * The exit code of a failure, after its stderr lines (the error, then its hints) and (with `--json`) its document, which
 * carries the hints and the store's problem too.
 */
const fail = (error: unknown, asJson: boolean) => {
  const hints = FailureHint.of(error)
  const problem = FailureHint.problemOf(error)
  const { error: body } = Output.errorJson(error)
  const document = { error: { ...body, ...(problem === undefined ? {} : { problem }), ...(hints.length === 0 ? {} : { hints }) } }
  return Console.error([Output.describeError(error), ...hints.map(Output.describeHint)].join("\n")).pipe(
    Effect.andThen(asJson ? Output.json(document) : Effect.void),
    Effect.as(Output.exitCodeOf(error))
  )
}

/** A long flag alone (`--message`), whose value may be the next argument. */
const isFlag = (arg: string): boolean => /^--[a-z][a-z-]*$/.test(arg)

/** A long flag alone or with its value joined (`--message=-5`). */
const isFlagForm = (arg: string): boolean => /^--[a-z][a-z-]*(=|$)/.test(arg)

/** An argument no flag can be, starting with `-` (`-5 off`, `-20%`, `-hello`), which the parser splits into flags. */
const isDashText = (arg: string): boolean =>
  arg.startsWith("-") && !isFlagForm(arg) && (/\s|^-\d/.test(arg) || (!arg.startsWith("--") && arg.length > 2))

/**
 * A flag followed by a value starting with `-` (`--message -5`), or an argument starting with `-` (`inspect "-5 off"`):
 * the parser takes it for flags, so the usage error it gives is followed by the way out, `--message=-5` or `-- "-5 off"`.
 */
export const dashValueHint = (args: ReadonlyArray<string>): string | undefined => {
  const flags = beforeEnd(args)
  for (let i = 0; i + 1 < flags.length; i++) {
    const flag = flags[i] ?? ""
    const value = flags[i + 1] ?? ""
    if (isFlag(flag) && value.startsWith("-") && value !== "-" && !isFlagForm(value)) {
      return `a value starting with "-" must be joined to its flag with "=": ${flag}=${value}`
    }
  }
  const text = flags.find((arg, i) => isDashText(arg) && !isFlag(flags[i - 1] ?? ""))
  return text === undefined
    ? undefined
    : `an argument starting with "-" goes after "--", which ends the flags (write the flags before it): -- ${JSON.stringify(text)}`
}

/** A usage error found before the parser runs, with the flag it is about (`field`, as every usage error names it). */
interface Refusal {
  readonly reason: string
  readonly field: string
}

/**
 * `--message -hi`: the parser would read the value as the flags `-h -i` and show help, so nothing is sent and
 * the exit is 0. Someone asking for help writes `-h` alone; a longer word starting `-h` or `-v` right after a
 * flag is a value, refused (exit 2, `USAGE`) with the way to write it.
 */
const swallowedValue = (args: ReadonlyArray<string>): Refusal | undefined => {
  const at = args.findIndex((arg, i) => i > 0 && /^-[hv]./.test(arg) && isFlag(args[i - 1] ?? ""))
  const flag = args[at - 1] ?? ""
  return at < 0 ? undefined : { reason: `${flag} ${args[at]} is read as flags: ${dashValueHint(args.slice(at - 1)) ?? ""}`, field: flag }
}

/**
 * effect/cli's own global flags that answer with no JSON document (a wizard's questions, a shell script): with `--json`
 * they are refused, as a script's stdout must hold one document (before the end of flags, `--`).
 */
const notJson = (args: ReadonlyArray<string>): Refusal | undefined => {
  const flag = beforeEnd(args).find((arg) => arg === "--wizard" || /^--completions(=|$)/.test(arg))?.replace(/=.*/, "")
  return flag === undefined ? undefined : { reason: `${flag} writes no JSON document: leave out --json`, field: flag }
}

/**
 * The command line on `args`, as an effect that always succeeds with the exit code: 0 done,
 * 1 failed, 2 bad usage or input, 3 too many rejected rows. With `--json`, whatever happened,
 * stdout receives exactly one JSON document, written here and only here.
 */
export const program = (
  args: ReadonlyArray<string>,
  collected: ReturnType<typeof Output.collector> = Output.collector()
): Effect.Effect<Output.ExitCode> => {
  const asJson = wantsJson(args)
  const swallowed = swallowedValue(args) ?? (asJson ? notJson(args) : undefined)
  const refused = swallowed === undefined ? Effect.void : Effect.fail(new CliErrors.Usage(swallowed))
  const run = Effect.andThen(refused, Effect.flatMap(root(needed(args)), (smsbook) => Command.runWith(smsbook, { version })(args))).pipe(
    Effect.provideService(CliOutput.Presenter, presenter(asJson)),
    Effect.provide(NodeServices.layer),
    Effect.exit,
    Effect.flatMap((exit): Effect.Effect<Output.ExitCode> => {
      if (Exit.isSuccess(exit)) return Effect.succeed(Output.ExitCode.done)
      const failure = Cause.findErrorOption(exit.cause)
      if (Option.isNone(failure)) {
        return Cause.hasInterruptsOnly(exit.cause)
          ? Effect.interrupt
          : fail(Cause.squash(exit.cause), asJson)
      }
      const error = failure.value
      if (CliError.isCliError(error)) {
        if (error._tag === "ShowHelp" && error.errors.length === 0) return Effect.succeed(Output.ExitCode.done)
        const hint = dashValueHint(args)
        const usage = usageError(error)
        const document = { error: { ...Output.errorJson(usage).error, ...(hint === undefined ? {} : { hints: [hint] }) } }
        return Effect.andThen(
          hint === undefined ? Effect.void : Console.error(Output.describeHint(hint)),
          Effect.as(asJson ? Output.json(document) : Effect.void, Output.ExitCode.badInput)
        )
      }
      return fail(error, asJson)
    }),
    Effect.provideService(Output.Stdout, asJson ? collected.stdout : Output.Stdout.defaultValue())
  )
  if (!asJson) return run
  return Effect.flatMap(run, (code) =>
    Effect.as(
      Effect.sync(() => {
        const pending = collected.pending()
        // Every outcome ends in one document: a command that printed none still says it succeeded.
        if (pending._tag === "Document") writeDocument(pending.value)
        else if (pending._tag === "Nothing") writeDocument(code === 0 ? { ok: true } : Output.errorJson(new Error("failed")))
      }),
      code
    ))
}

const writeDocument = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)

/**
 * Standard output failed. Its reader went away (`| head`, EPIPE): it wanted no more, so the run ends quietly (exit 0,
 * where a writer killed by SIGPIPE exits 141 and fails every `set -o pipefail` script that reads only a head). Anything else (a full disk under `> file`): said in words on stderr, exit 1. Either way what
 * the command did stands (an import committed before its summary was written): only its output is lost. Without this
 * listener Node printed a stack trace.
 */
const stdoutFailed = (error: Error & { readonly code?: string }): void => {
  // A stopped run ends with its stop's code: a closed terminal fails the writes (EIO) as its SIGHUP stops the run.
  if (stoppedBy !== undefined) return
  // The code the run has already earned stands (an import over --max-rejects copying its rejects: 3), as does the one
  // it exits with (a failure whose document the reader did not take whole).
  if (error.code === "EPIPE") return process.exit(exiting ?? Output.earnedCode() ?? Output.ExitCode.done)
  process.stderr.write(
    `error: standard output could not be written (${Files.reasonOf(error)}): what the command did stands, its output is lost\n`
  )
  process.exit(Output.ExitCode.failed)
}

/**
 * Standard error failed (its terminal closed: EIO; its reader gone): nothing more can be said there, and the run goes
 * on to its end, or to the stop that a closed terminal's SIGHUP brings. Without this listener the failed write of a
 * progress line ended an import with an uncaught error (exit 1) before its SIGHUP could stop it and roll it back.
 */
const stderrFailed = (): void => undefined

/** The signal that stopped the run, if one did: SIGINT exits 130, SIGTERM 143, SIGHUP 129. */
let stoppedBy: EarlySignals.Signal | undefined

/** The code the run exits with once its output is written, when it has come that far. */
let exiting: number | undefined

/**
 * Exits with `code` once stdout and stderr hold all that was written (a document a slow pipe has not taken yet
 * is not cut).
 */
const exit = (code: number): void => {
  exiting = code
  exitWhenWritten(code)
}

/**
 * Runs the command line as the process: Ctrl-C (SIGINT), SIGTERM and SIGHUP interrupt it, so finalizers run
 * (transactions roll back, partial files go, a server drains), then it exits 130, 143 or 129 with one document for
 * `--json`.
 */
export const main = (args: ReadonlyArray<string>): void => {
  const asJson = wantsJson(args)
  const collected = Output.collector()
  process.stdout.on("error", stdoutFailed)
  process.stderr.on("error", stderrFailed)
  process.once("SIGINT", () => void (stoppedBy ??= "SIGINT"))
  process.once("SIGTERM", () => void (stoppedBy ??= "SIGTERM"))
  // The runtime interrupts on SIGINT and SIGTERM only: a closed terminal's SIGHUP, which would kill the process with
  // nothing rolled back or said, is remembered and turned into the SIGTERM that stops it the same way.
  process.on("SIGHUP", () => {
    if (stoppedBy !== undefined) return
    stoppedBy = "SIGHUP"
    process.kill(process.pid, "SIGTERM")
  })
  EarlySignals.release()
  const early = EarlySignals.received()
  if (early !== undefined) {
    // Stopped while loading: nothing was done, and the run says so as any stopped run does.
    stoppedBy = early
    return interrupted(asJson, collected, exit)
  }
  NodeRuntime.runMain(program(args, collected), {
    disableErrorReporting: true,
    // The runtime's own exit (`process.exit` at once for a code other than 0) would cut what a pipe has not taken yet.
    teardown: (result, onExit) => {
      const end = (code: number) => code === 0 && stoppedBy === undefined ? onExit(code) : exit(code)
      if (Exit.isSuccess(result) && typeof result.value === "number") return end(result.value)
      interrupted(asJson, collected, end)
    }
  })
}

/** Ends a run a signal stopped: what it kept (or that it kept nothing) on stderr, the error document with `--json`. */
const interrupted = (asJson: boolean, collected: ReturnType<typeof Output.collector>, onExit: (code: number) => void): void => {
  const signal = stoppedBy ?? "SIGINT"
  const kept = Interruption.keptSoFar()
  const error = new CliErrors.Interrupted(kept === undefined ? { signal } : { signal, kept })
  process.stderr.write(`${Output.describeError(error)}\n`)
  // Data already streamed to stdout (a server's address, an export) is the document: nothing is added.
  if (asJson && collected.pending()._tag !== "Streamed") writeDocument(Output.errorJson(error))
  onExit(Output.exitCodeOf(error))
}
