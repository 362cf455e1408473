/**
 * The account a process acts for: the short name that prefixes every text, the short code messages
 * come from, the user recorded as `created_by`, the time zone of `created_on`, and the anti-spam period.
 */
import { Context, Layer, Result } from "effect"
import * as CreatedOn from "./CreatedOn.ts"
import { InvalidField } from "./Errors.ts"
import { isBlank } from "./internal/blank.ts"
import * as Sms from "./Sms.ts"

export interface Settings {
  readonly short_name: string
  readonly short_code: string
  readonly user: string
  /** IANA time zone `created_on` is rendered in. */
  readonly time_zone: string
  /** Two sends with the same `id` within this many seconds: the second is refused. */
  readonly spam_period_seconds: number
}

export const defaults: Settings = {
  short_name: "smsbook",
  short_code: "smsbook",
  user: "smsbook",
  time_zone: "UTC",
  spam_period_seconds: 24 * 60 * 60
}

export class Account extends Context.Service<Account, Settings>()("@smsbook/core/Account") {}

export const layer = (settings: Settings): Layer.Layer<Account> => Layer.succeed(Account, settings)

/**
 * What acts instead of showing: controls (C0, C1, DEL), line and paragraph separators, bidi controls. Every message
 * records the short name (its prefix), the short code (its sender) and the user (its author), and every store, log and
 * terminal keeps and shows them as they are: each must be one printable line.
 */
const acting = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/

/**
 * Settings over the defaults, checked: a short name, short code and user of one printable line each; a short name
 * that is not blank and leaves room for a text (budget ≥ 1); an IANA zone `CreatedOn` can render (not a fixed
 * offset); a non-negative whole spam period. A refused value is an `InvalidField` naming the setting (where settings
 * are read, the caller may say where it came from).
 */
export const make = (overrides: Partial<Settings>): Result.Result<Settings, InvalidField> => {
  const settings = { ...defaults, ...overrides }
  // Blank as a text is (internal/blank.ts): a name of zero-width characters shows nothing, yet prefixed every text.
  const blank = isBlank(settings.short_name)
  if (blank || Sms.budget(settings.short_name) < 1) {
    const reason = blank ? "must show something (not only blanks or invisible characters)" : "must be 1 to 157 characters"
    return Result.fail(new InvalidField({ field: "short_name", value: settings.short_name, reason }))
  }
  for (const field of ["short_name", "short_code", "user"] as const) {
    if (acting.test(settings[field])) {
      return Result.fail(
        new InvalidField({ field, value: settings[field], reason: "must be one line of printable characters (no line break, tab, escape or bidi control)" })
      )
    }
  }
  if (settings.short_code.trim() === "") {
    return Result.fail(new InvalidField({ field: "short_code", value: settings.short_code, reason: "must not be empty" }))
  }
  if (Result.isFailure(CreatedOn.zone(settings.time_zone))) {
    return Result.fail(new InvalidField({ field: "time_zone", value: settings.time_zone, reason: "is not an IANA time zone (e.g. Europe/London)" }))
  }
  if (!Number.isSafeInteger(settings.spam_period_seconds) || settings.spam_period_seconds < 0) {
    return Result.fail(
      new InvalidField({ field: "spam_period_seconds", value: String(settings.spam_period_seconds), reason: "must be a whole number of seconds ≥ 0" })
    )
  }
  return Result.succeed(settings)
}
