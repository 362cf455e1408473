/**
 * The errors only the command line raises: files it writes, settings it reads, import limits and
 * broadcast plans. Their codes and numbers continue core's catalog and are never renumbered.
 */
import type { Errors } from "@smsbook/core"
import { Schema } from "effect"

/** An import rejected more rows than `--max-rejects` allows: rolled back, exit 3. */
export class TooManyRejects extends Schema.TaggedError<TooManyRejects>()("TooManyRejects", {
  rejected: Schema.Number,
  allowed: Schema.String
}) {
  override get message(): string {
    return `${this.rejected} rows were rejected, more than --max-rejects ${this.allowed}; nothing was imported`
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

/** An output file (report, plan, rejects) that could not be written or put in place. */
export class FileFailure extends Schema.TaggedError<FileFailure>()("FileFailure", {
  path: Schema.String,
  reason: Schema.String
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

export type CliError = TooManyRejects | PlanMismatch | FileFailure | InvalidSettings

/** Their identities, numbered among core's (see `Errors.catalog`): never renumber, only append. */
export const catalog: { readonly [Tag in CliError["_tag"]]: Errors.Info } = {
  PlanMismatch: { code: "PLAN_MISMATCH", number: 1014, status: 409 },
  InvalidSettings: { code: "INVALID_SETTINGS", number: 1016, status: 400 },
  TooManyRejects: { code: "TOO_MANY_REJECTS", number: 1018, status: 422 },
  FileFailure: { code: "FILE_FAILURE", number: 2004, status: 500 }
}
