/**
 * Where a command's account settings and store come from: flags first, then the environment
 * (`SMSBOOK_*`), then `smsbook.json` in the working directory, then the defaults.
 */
import { Account } from "@smsbook/core"
import { Effect, Option, Result } from "effect"
import * as fs from "node:fs"
import { InvalidSettings } from "./CliErrors.ts"

/** The settings a command line may give; absent means "not said here". */
export interface Given {
  readonly store?: string | undefined
  readonly short_name?: string | undefined
  readonly short_code?: string | undefined
  readonly user?: string | undefined
  readonly time_zone?: string | undefined
  readonly spam_period_seconds?: string | undefined
}

export interface Resolved {
  readonly store: string
  readonly account: Account.Settings
}

export const defaultStore = "./smsbook.db"

const environmentNames: { readonly [K in keyof Given]-?: string } = {
  store: "SMSBOOK_STORE",
  short_name: "SMSBOOK_SHORT_NAME",
  short_code: "SMSBOOK_SHORT_CODE",
  user: "SMSBOOK_USER",
  time_zone: "SMSBOOK_TIME_ZONE",
  spam_period_seconds: "SMSBOOK_SPAM_PERIOD"
}

/** Settings from environment variables. */
export const fromEnvironment = (env: Readonly<Record<string, string | undefined>>): Given =>
  Object.fromEntries(
    Object.entries(environmentNames).flatMap(([key, name]) => env[name] === undefined ? [] : [[key, env[name]]])
  )

/** Settings from the text of `smsbook.json` (same keys as the flags, snake_case; numbers allowed). */
export const fromFile = (text: string, path: string): Result.Result<Given, InvalidSettings> => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return Result.fail(new InvalidSettings({ setting: path, value: text.slice(0, 40), reason: `is not JSON: ${String(error)}` }))
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return Result.fail(new InvalidSettings({ setting: path, value: text.slice(0, 40), reason: "must be a JSON object" }))
  }
  const given: Record<string, string> = {}
  for (const [key, value] of Object.entries(parsed)) {
    if (!Object.hasOwn(environmentNames, key)) {
      return Result.fail(
        new InvalidSettings({
          setting: `${path}: ${key}`,
          value: JSON.stringify(value) ?? "",
          reason: `unknown setting (known: ${Object.keys(environmentNames).join(", ")})`
        })
      )
    }
    if (typeof value !== "string" && typeof value !== "number") {
      return Result.fail(
        new InvalidSettings({ setting: `${path}: ${key}`, value: JSON.stringify(value) ?? "", reason: "must be text or a number" })
      )
    }
    given[key] = String(value)
  }
  return Result.succeed(given)
}

const pick = (layers: ReadonlyArray<Given>, key: keyof Given): string | undefined => {
  for (const layer of layers) {
    const value = layer[key]
    if (value !== undefined && value !== "") return value
  }
  return undefined
}

/**
 * The first layer that says a setting wins; the result is checked by `Account.make`. Commands that
 * send or price a text need the short name said somewhere: a prefix is never guessed.
 */
export const resolve = (
  layers: ReadonlyArray<Given>,
  options: { readonly needsShortName: boolean }
): Result.Result<Resolved, InvalidSettings> => {
  if (options.needsShortName && pick(layers, "short_name") === undefined) {
    return Result.fail(
      new InvalidSettings({
        setting: "short_name",
        value: "",
        reason: "is required: pass --short-name, set SMSBOOK_SHORT_NAME, or put short_name in smsbook.json"
      })
    )
  }
  const spam = pick(layers, "spam_period_seconds")
  const spamSeconds = spam === undefined ? undefined : Number(spam)
  if (spam !== undefined && !/^\s*\d{1,15}\s*$/.test(spam)) {
    return Result.fail(new InvalidSettings({ setting: "spam_period_seconds", value: spam, reason: "must be a whole number of seconds" }))
  }
  const overrides: Partial<Account.Settings> = Object.fromEntries(
    (["short_name", "short_code", "user", "time_zone"] as const).flatMap((key) => {
      const value = pick(layers, key)
      return value === undefined ? [] : [[key, value]]
    })
  )
  return Result.mapBoth(
    Account.make({ ...overrides, ...(spamSeconds === undefined ? {} : { spam_period_seconds: spamSeconds }) }),
    {
      onFailure: ({ field, value, reason }) => new InvalidSettings({ setting: field, value, reason }),
      onSuccess: (account) => ({ store: pick(layers, "store") ?? defaultStore, account })
    }
  )
}

export const configFile = "smsbook.json"

/** Flags, then environment, then `./smsbook.json` (if present), then defaults. */
export const load = Effect.fnUntraced(function*(flags: Given, options: { readonly needsShortName: boolean }) {
  const text = yield* Effect.sync(() => Option.liftThrowable(() => fs.readFileSync(configFile, "utf8"))())
  const file = Option.isSome(text) ? yield* Effect.fromResult(fromFile(text.value, configFile)) : {}
  return yield* Effect.fromResult(resolve([flags, fromEnvironment(process.env), file], options))
})
