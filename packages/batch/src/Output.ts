/**
 * How commands speak: results on stdout (exactly one JSON document with `--json`, text otherwise),
 * errors with their stable code, and the process exit code — decided here and nowhere else.
 */
import { Errors, InvalidParameter, type SmsbookError } from "@smsbook/core"
import { Console, Context, Effect, Option } from "effect"
import * as CliErrors from "./CliErrors.ts"
import * as OutputPath from "./internal/outputPath.ts"
import * as Visible from "./internal/visible.ts"

/**
 * 0 done, 1 failed, 2 bad usage or input, 3 finished but rows were rejected beyond `--max-rejects`,
 * 130 interrupted (SIGINT, Ctrl-C), 143 terminated (SIGTERM), 129 hung up (SIGHUP: the terminal closed).
 */
export const ExitCode = {
  done: 0,
  failed: 1,
  badInput: 2,
  tooManyRejects: 3,
  hungUp: 129,
  interrupted: 130,
  terminated: 143
} as const
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode]

/** Every error the command line can report: the domain's and its own. */
export type ReportedError = SmsbookError | CliErrors.CliError

/** The identities of every reported error: core's catalog and the command line's, numbers unique. */
export const catalog: { readonly [Tag in ReportedError["_tag"]]: Errors.Info } = { ...Errors.catalog, ...CliErrors.catalog }

const reportedTags = new Set<string>(Object.keys(catalog))

export const isSmsbookError = (error: unknown): error is ReportedError =>
  typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string" &&
  reportedTags.has(error._tag)

/** The code, number and HTTP status of an error. */
export const info = (error: ReportedError): Errors.Info => catalog[error._tag]

/** `error` as one of the reported errors: a foreign one as `Unexpected`, with its own message. */
const asReported = (error: unknown): ReportedError =>
  isSmsbookError(error)
    ? error
    : new CliErrors.Unexpected({ reason: error instanceof Error ? error.message : String(error) })

const signalCodes = { SIGINT: ExitCode.interrupted, SIGTERM: ExitCode.terminated, SIGHUP: ExitCode.hungUp } as const

/** The exit code of a failure: too many rejects 3, interrupted 130/143/129, input errors 2, everything else 1. */
export const exitCodeOf = (error: unknown): ExitCode => {
  if (!isSmsbookError(error)) return ExitCode.failed
  if (error._tag === "TooManyRejects") return ExitCode.tooManyRejects
  if (error._tag === "Interrupted") return signalCodes[error.signal]
  const { status } = info(error)
  // Input errors are the ones a server answers 400 or 422: the caller's input is at fault.
  return status === 400 || status === 422 ? ExitCode.badInput : ExitCode.failed
}

/**
 * One line for stderr: `error CODE (number): message`. Errors quote values from files and flags, so control
 * characters in them are shown as escapes (see `internal/visible.ts`).
 */
export const describeError = (error: unknown): string => {
  const reported = asReported(error)
  const { code, number } = info(reported)
  return Visible.show(`error ${code} (${number}): ${reported.message}`)
}

/** The flag, setting or field an error is about, when it names one. */
const fieldOf = (error: ReportedError): string | undefined => {
  switch (error._tag) {
    case "InvalidField":
      return error.field
    case "InvalidParameter":
      return error.parameter
    case "InvalidSettings":
      return error.setting
    case "Usage":
      return error.field
    case "InvalidStoreUrl":
    case "StoreNotFound":
      return "--store"
    // Rules of a send that only one flag of the command line feeds (`inspect` carries its argument instead).
    case "MessageTooLong":
      return "--message"
    case "ExternalIdTooLong":
      return "--id"
    case "MissingTags":
      return "--tags"
    default:
      return undefined
  }
}

/** The line of a file an error is about, when it names one. */
const lineOf = (error: ReportedError): number | undefined => "line" in error && typeof error.line === "number" ? error.line : undefined

/** What failures carry for scripts beside their own fields ({@link carrying}). */
const carried = new WeakMap<object, { readonly [key: string]: unknown }>()

/** `error`, whose JSON document also carries `extra` (`inspect`'s analysis of the text it refuses). */
export const carrying = <E extends object>(error: E, extra: { readonly [key: string]: unknown }): E => {
  carried.set(error, extra)
  return error
}

/**
 * The JSON document of a failure: `{"error": {code, number, message, field?, line?, …}}`, plus its
 * tag, HTTP status and exit code, and what the error carries for scripts (an import's summary, {@link carrying}).
 */
export const errorJson = (given: unknown) => {
  const error = asReported(given)
  const field = fieldOf(error)
  const line = lineOf(error)
  return {
    error: {
      ...info(error),
      tag: error._tag,
      message: error.message,
      ...(field === undefined ? {} : { field }),
      ...(line === undefined ? {} : { line }),
      ...(error._tag === "TooManyRejects" && error.summary !== undefined ? { summary: error.summary } : {}),
      ...(typeof given === "object" && given !== null ? carried.get(given) : undefined),
      exit_code: exitCodeOf(error)
    }
  }
}

/**
 * Where a `--json` command's one document goes. The command line's entry point provides a fresh one
 * per run and prints it once at the end, so no outcome can put two documents (or none) on stdout;
 * outside it (a job run as a library), documents print at once.
 */
export interface Stdout {
  /** Keeps `value` as the run's document; a later one replaces it (the last word is the result). */
  readonly document: (value: unknown) => Effect.Effect<void>
  /** Marks stdout as carrying streamed data (an export to `--out -`): nothing else may be printed there. */
  readonly streamed: Effect.Effect<void>
}

export const Stdout = Context.Reference<Stdout>("@smsbook/batch/Output/Stdout", {
  defaultValue: () => ({ document: (value) => Console.log(JSON.stringify(value, null, 2)), streamed: Effect.void })
})

/** What a run put aside for stdout: nothing yet, one document, or streamed data. */
export type Pending = { readonly _tag: "Nothing" } | { readonly _tag: "Document"; readonly value: unknown } | { readonly _tag: "Streamed" }

/** A `Stdout` that keeps the run's document for the entry point, and what it kept. */
export const collector = (): { readonly stdout: Stdout; readonly pending: () => Pending } => {
  let pending: Pending = { _tag: "Nothing" }
  return {
    stdout: {
      // Once data streamed to stdout it is the document: a later failure is told on stderr only.
      document: (value) => Effect.sync(() => void (pending._tag === "Streamed" || (pending = { _tag: "Document", value }))),
      streamed: Effect.sync(() => void (pending = { _tag: "Streamed" }))
    },
    pending: () => pending
  }
}

/** Prints one JSON document on stdout (once per run: see `Stdout`). */
export const json = (value: unknown) => Effect.flatMap(Stdout, (stdout) => stdout.document(value))

/** Marks stdout as carrying streamed data with `--json`: that data is the run's one document. */
export const streamed = Effect.flatMap(Stdout, (stdout) => stdout.streamed)

/**
 * Human lines on stdout. They carry names, tags, texts and headers from data and files: their control
 * characters are shown as escapes, never acted on by the terminal (JSON escapes C0 itself; C1 and bidi
 * characters are kept there, as data).
 */
export const lines = (text: ReadonlyArray<string>) => Effect.forEach(text, (line) => Console.log(Visible.show(line)), { discard: true })

/** Human lines on stderr (notes beside a document or a data stream), shown as {@link lines} shows them. */
export const notes = (text: ReadonlyArray<string>) => Effect.forEach(text, (line) => Console.error(Visible.show(line)), { discard: true })

/** The exit code a run earned before its last output was written, if it did: {@link earn}. */
let earned: ExitCode | undefined

/**
 * Records the exit code the run has earned before it writes its last output (an import over `--max-rejects` copying
 * its rejects to standard output: 3), so that a reader that goes away (`| head`) cuts the output, not the outcome
 * (`Main`'s handler of a failed standard output exits with it).
 */
export const earn = (code: ExitCode) => Effect.sync(() => void (earned = code))

/** The code {@link earn} recorded, if any. */
export const earnedCode = (): ExitCode | undefined => earned

/** A hint after a usage error, on stderr. */
export const describeHint = (hint: string): string => Visible.show(`hint: ${hint}`)

/** A human line on stderr, shown as {@link lines} shows lines. */
export const note = (line: string) => Console.error(Visible.show(line))

/** Prints `value` as the JSON document with `--json`, else as the lines `human` makes of it. */
export const print = <A>(asJson: boolean, value: A, human: (value: A) => ReadonlyArray<string>) =>
  asJson ? json(value) : lines(human(value))

/**
 * Where a data export (`report`, `contacts export`, `suppressions export`) writes its `--out`: `-` for every path that is standard output
 * (`-`, `/dev/stdout`, `/proc/self/fd/1`, the file stdout is redirected to: `OutputPath.isStandardOutput`), so each is
 * written as `-` is (to stdout in place, never a file renamed over the one stdout holds open); any other path as given.
 */
export const exportOut = (out: string): string => OutputPath.isStandardOutput(out) ? "-" : out

/**
 * The format of a data export (`report`, `contacts export`, `suppressions export`): `--format` if given, else CSV — but with
 * `--json` and an `--out` that is standard output (`-`, `/dev/stdout`…), stdout must be one JSON document, so the
 * format is JSON and CSV or JSON Lines there are refused.
 */
export const exportFormat = <F extends string>(input: {
  readonly json: boolean
  readonly format: Option.Option<F | "csv" | "json">
  readonly out: string
}): Effect.Effect<F | "csv" | "json", InvalidParameter> => {
  const toStdout = input.json && OutputPath.isStandardOutput(input.out)
  if (Option.isNone(input.format)) return Effect.succeed(toStdout ? "json" : "csv")
  if (toStdout && input.format.value !== "json") {
    return Effect.fail(
      new InvalidParameter({
        parameter: "--format",
        value: input.format.value,
        reason: `with --json and --out ${input.out}, which is standard output, stdout carries one JSON document: use --format json, or --out FILE`
      })
    )
  }
  return Effect.succeed(input.format.value)
}

/**
 * What an export says when done. Written to a file, its summary is the command's result (JSON with
 * `--json`); written to stdout (any path that is standard output), the data owns stdout and the summary goes to stderr.
 */
export const exported = <A>(asJson: boolean, out: string, result: A, human: (value: A) => ReadonlyArray<string>) =>
  OutputPath.isStandardOutput(out) ? notes(human(result)) : print(asJson, result, human)

/** Runs an export `write`, marking stdout as streamed first when the data goes there (any path that is standard output) with `--json`. */
export const exporting = <A, E, R>(asJson: boolean, out: string, write: Effect.Effect<A, E, R>) =>
  asJson && OutputPath.isStandardOutput(out) ? Effect.andThen(streamed, write) : write
