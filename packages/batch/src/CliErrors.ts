/**
 * The errors only the command line raises: files it writes, settings it reads, import limits and
 * broadcast plans. Their codes and numbers continue core's catalog and are never renumbered.
 */
import type { Errors } from "@smsbook/core"
import { Schema } from "effect"

const count = (value: number): string => value.toLocaleString("en-US")

/**
 * An import rejected more rows than `--max-rejects` allows: rolled back, exit 3. It carries the import's
 * summary, so `--json` callers get one document saying both what failed and what the file held.
 */
export class TooManyRejects extends Schema.TaggedError<TooManyRejects>()("TooManyRejects", {
  rejected: Schema.Number,
  allowed: Schema.String,
  read: Schema.optionalKey(Schema.Number),
  summary: Schema.optionalKey(Schema.Unknown)
}) {
  override get message(): string {
    if (this.read === undefined || this.read === 0) {
      return `nothing imported: ${count(this.rejected)} rows rejected, more than --max-rejects ${this.allowed}`
    }
    const share = (Math.round((this.rejected / this.read) * 1000) / 10).toFixed(1)
    return `nothing imported: ${count(this.rejected)} of ${count(this.read)} rows rejected (${share} %), more than --max-rejects ${this.allowed}`
  }
}

/**
 * The command line was used wrongly: an unknown or missing flag, a value it cannot read, an unknown
 * subcommand. `field` names the flag or argument when there is one.
 */
export class Usage extends Schema.TaggedError<Usage>()("Usage", {
  reason: Schema.String,
  field: Schema.optionalKey(Schema.String)
}) {
  override get message(): string {
    return this.reason
  }
}

/** A SQLite book named by `--store` that does not exist: only `import` and `init` create one. */
export class StoreNotFound extends Schema.TaggedError<StoreNotFound>()("StoreNotFound", {
  path: Schema.String
}) {
  override get message(): string {
    return `no book at ${this.path}: check --store (or SMSBOOK_STORE, or store in smsbook.json); ` +
      `create one with \`smsbook init --store ${this.path}\` or by importing a file into it (\`smsbook import FILE --store ${this.path}\`)`
  }
}

/** A broadcast plan file that was edited, made for another account, or no longer matches the book. */
export class PlanMismatch extends Schema.TaggedError<PlanMismatch>()("PlanMismatch", {
  reason: Schema.String
}) {
  override get message(): string {
    return `the broadcast plan cannot be sent: ${this.reason}`
  }
}

/**
 * An output file (report, plan, rejects) that could not be written or put in place. `problem` says what is wrong
 * beneath it where the system's error code tells (a full disk, a read-only file system, a failing device), as a
 * store's failure does.
 */
export class FileFailure extends Schema.TaggedError<FileFailure>()("FileFailure", {
  path: Schema.String,
  reason: Schema.String,
  problem: Schema.optionalKey(Schema.Literals(["disk-full", "read-only", "disk-io"]))
}) {
  override get message(): string {
    return `${this.path}: ${this.reason}`
  }
}

/** A setting from a flag, the environment or `smsbook.json` that is missing, malformed or refused. */
export class InvalidSettings extends Schema.TaggedError<InvalidSettings>()("InvalidSettings", {
  setting: Schema.String,
  value: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `setting ${this.setting}: ${this.reason} (got ${JSON.stringify(this.value)})`
  }
}

/**
 * The run was stopped by SIGINT (Ctrl-C), SIGTERM or SIGHUP (its terminal closed): whatever was under way rolled
 * back; exit 130, 143 or 129.
 */
export class Interrupted extends Schema.TaggedError<Interrupted>()("Interrupted", {
  signal: Schema.Literals(["SIGINT", "SIGTERM", "SIGHUP"]),
  /** What the job had done that stays (a broadcast's committed batches); absent: nothing stays. */
  kept: Schema.optionalKey(Schema.String)
}) {
  override get message(): string {
    return this.kept === undefined
      ? `interrupted by ${this.signal}: work under way was rolled back, nothing half-written was kept`
      : `interrupted by ${this.signal}: ${this.kept}`
  }
}

/**
 * A failure that is none of smsbook's own (a library's error nobody turned into one of ours, a defect): reported with
 * an identity all the same, so `--json` callers always find `code`, `number` and `status`, and stderr the usual line.
 */
export class Unexpected extends Schema.TaggedError<Unexpected>()("Unexpected", {
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

export type CliError = TooManyRejects | PlanMismatch | FileFailure | InvalidSettings | Usage | StoreNotFound | Interrupted | Unexpected

/** Their identities, numbered among core's (see `Errors.catalog`): never renumber, only append. */
export const catalog: { readonly [Tag in CliError["_tag"]]: Errors.Info } = {
  PlanMismatch: { code: "PLAN_MISMATCH", number: 1014, status: 409 },
  InvalidSettings: { code: "INVALID_SETTINGS", number: 1016, status: 400 },
  TooManyRejects: { code: "TOO_MANY_REJECTS", number: 1018, status: 422 },
  StoreNotFound: { code: "STORE_NOT_FOUND", number: 1019, status: 400 },
  Usage: { code: "USAGE", number: 1020, status: 400 },
  FileFailure: { code: "FILE_FAILURE", number: 2004, status: 500 },
  Interrupted: { code: "INTERRUPTED", number: 2005, status: 503 },
  Unexpected: { code: "FAILED", number: 2006, status: 500 }
}
