/**
 * How commands speak: results on stdout (JSON with `--json`, text otherwise), errors with their
 * stable code, and the process exit code — decided here and nowhere else.
 */
import { Errors, type SmsbookError } from "@smsbook/core"
import { Console, Effect } from "effect"
import * as CliErrors from "./CliErrors.ts"
import * as Visible from "./internal/visible.ts"

/** 0 done, 1 failed, 2 bad usage or input, 3 finished but rows were rejected beyond `--max-rejects`. */
export const ExitCode = { done: 0, failed: 1, badInput: 2, tooManyRejects: 3 } as const
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

/** The exit code of a failure: too many rejects 3, input errors 2, everything else 1. */
export const exitCodeOf = (error: unknown): ExitCode => {
  if (!isSmsbookError(error)) return ExitCode.failed
  if (error._tag === "TooManyRejects") return ExitCode.tooManyRejects
  const { status } = info(error)
  // Input errors are the ones a server answers 400 or 422: the caller's input is at fault.
  return status === 400 || status === 422 ? ExitCode.badInput : ExitCode.failed
}

/**
 * One line for stderr: `error CODE (number): message`. Errors quote values from files and flags, so control
 * characters in them are shown as escapes (see `internal/visible.ts`).
 */
export const describeError = (error: unknown): string => {
  if (isSmsbookError(error)) {
    const { code, number } = info(error)
    return Visible.show(`error ${code} (${number}): ${error.message}`)
  }
  return Visible.show(`error: ${error instanceof Error ? error.message : String(error)}`)
}

/** The JSON form of an error, printed on stdout for `--json` callers (stderr still gets the line). */
export const errorJson = (error: unknown) =>
  isSmsbookError(error)
    ? { error: { ...info(error), tag: error._tag, message: error.message, exit_code: exitCodeOf(error) } }
    : { error: { code: "FAILED", message: describeError(error), exit_code: ExitCode.failed } }

export const json = (value: unknown) => Console.log(JSON.stringify(value, null, 2))

/**
 * Prints `value` as JSON with `--json`, else as the lines `human` makes of it. Human lines carry names, tags,
 * texts and headers from data and files: their control characters are shown as escapes, never acted on by the
 * terminal (JSON escapes C0 itself; C1 and bidi characters are kept there, as data).
 */
export const print = <A>(asJson: boolean, value: A, human: (value: A) => ReadonlyArray<string>) =>
  asJson ? json(value) : Effect.forEach(human(value), (line) => Console.log(Visible.show(line)), { discard: true })

/** A hint after a usage error, on stderr. */
export const describeHint = (hint: string): string => Visible.show(`hint: ${hint}`)

/** A human line on stderr, shown as {@link print} shows lines. */
export const note = (line: string) => Console.error(Visible.show(line))
