/**
 * Where a command's account settings and store come from, read through Effect `Config`: one
 * `ConfigProvider` layering flags over the environment (`SMSBOOK_*`) over `smsbook.json`, then the defaults.
 */
import { Account } from "@smsbook/core"
import { Config, ConfigProvider, Duration, Effect, FileSystem, Option, Result } from "effect"
import { InvalidSettings } from "./CliErrors.ts"
import * as Files from "./internal/files.ts"

/** The settings a command line may give; absent means "not said here". */
export interface Given {
  readonly store?: string | undefined
  readonly short_name?: string | undefined
  readonly short_code?: string | undefined
  readonly user?: string | undefined
  readonly time_zone?: string | undefined
  readonly spam_period_seconds?: string | undefined
  /** The carrier dispatch hands parts to (`smpp://…` or `kannel://…`); absent: parts stay in the outbox. */
  readonly carrier?: string | undefined
  /** Seconds a writer waits for another process's write (SQLite's busy wait, PostgreSQL's `lock_timeout`). */
  readonly lock_wait?: string | undefined
}

export interface Resolved {
  readonly store: string
  readonly account: Account.Settings
  readonly carrier?: string
  /** How long a writer waits for another process's write (SQLite or PostgreSQL); absent: the store's default. */
  readonly lockWait?: Duration.Duration
  /** Where `store` was said, as a refusal of it names it ({@link origin}); absent: `--store` (or the default book). */
  readonly storeSaidAt?: string
}

export const defaultStore = "./smsbook.db"

const environmentNames: { readonly [K in keyof Given]-?: string } = {
  store: "SMSBOOK_STORE",
  short_name: "SMSBOOK_SHORT_NAME",
  short_code: "SMSBOOK_SHORT_CODE",
  user: "SMSBOOK_USER",
  time_zone: "SMSBOOK_TIME_ZONE",
  spam_period_seconds: "SMSBOOK_SPAM_PERIOD",
  carrier: "SMSBOOK_CARRIER",
  lock_wait: "SMSBOOK_LOCK_WAIT"
}

/** The flag of each setting (`--wait` is the lock wait's). */
const flagNames: { readonly [K in keyof Given]-?: string } = {
  store: "--store",
  short_name: "--short-name",
  short_code: "--short-code",
  user: "--user",
  time_zone: "--time-zone",
  spam_period_seconds: "--spam-period",
  carrier: "--carrier",
  lock_wait: "--wait"
}

/** Whether a layer says a value: blank is not said, so a later layer applies. */
const isSaid = (value: string | undefined): boolean => value !== undefined && value !== ""

/**
 * Where the value of `key` was said, as a refusal of it names it: its flag, its environment variable or
 * `smsbook.json: key`, the first that says it (as {@link load} reads them); its flag when none does (it is missing).
 */
export const origin = (key: keyof Given, flags: Given, file: Given, env: NodeJS.ProcessEnv = process.env): string =>
  isSaid(flags[key])
    ? flagNames[key]
    : isSaid(env[environmentNames[key]])
    ? environmentNames[key]
    : isSaid(file[key])
    ? `${configFile}: ${key}`
    : flagNames[key]

const isKey = (name: string | number | undefined): name is keyof Given =>
  typeof name === "string" && Object.hasOwn(environmentNames, name)

/** A layer of settings said in one place (flags, the file): blanks are not said, so a later layer applies. */
export const fromGiven = (given: Given): ConfigProvider.ConfigProvider =>
  ConfigProvider.fromUnknown(Object.fromEntries(Object.entries(given).filter(([, value]) => isSaid(value))))

/**
 * The environment layer: each setting under its `SMSBOOK_*` name (the process's environment unless `env`
 * is given); a variable set to nothing is not said.
 */
export const fromEnvironment = (env?: Record<string, string>): ConfigProvider.ConfigProvider =>
  ConfigProvider.fromEnv(env === undefined ? {} : { env }).pipe(
    ConfigProvider.mapInput((path) => path.length === 1 && isKey(path[0]) ? [environmentNames[path[0]]] : ["-"])
  )

/** Settings from the text of `smsbook.json` (same keys as the flags, snake_case; numbers allowed). */
export const fromFile = (text: string, path: string): Result.Result<Given, InvalidSettings> => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    // Where, not what: the file may hold a store URL with its password, which JSON.parse's message would quote.
    const where = /at position \d+(?: \(line \d+ column \d+\))?/.exec(String(error))?.[0]
    return Result.fail(new InvalidSettings({ setting: path, value: path, reason: `is not JSON${where === undefined ? "" : ` (${where})`}` }))
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return Result.fail(new InvalidSettings({ setting: path, value: path, reason: "must be a JSON object" }))
  }
  const given: Record<string, string> = {}
  for (const [key, value] of Object.entries(parsed)) {
    if (!isKey(key)) {
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

/** The layers in order: the first that says a setting wins. */
export const layered = (layers: ReadonlyArray<ConfigProvider.ConfigProvider>): ConfigProvider.ConfigProvider =>
  layers.reduceRight<ConfigProvider.ConfigProvider>((rest, layer) => ConfigProvider.orElse(layer, rest), fromGiven({}))

const setting = (key: keyof Given) => Config.option(Config.String(key))

/** Every setting as text, each from the first layer that says it. */
export const said = Config.all({
  store: setting("store"),
  short_name: setting("short_name"),
  short_code: setting("short_code"),
  user: setting("user"),
  time_zone: setting("time_zone"),
  spam_period_seconds: setting("spam_period_seconds"),
  carrier: setting("carrier"),
  lock_wait: setting("lock_wait")
})

/**
 * The settings `provider` says, checked by `Account.make`. Commands that send or price a text need the
 * short name said somewhere: a prefix is never guessed.
 */
export const resolve = Effect.fnUntraced(function*(
  provider: ConfigProvider.ConfigProvider,
  options: { readonly needsShortName: boolean }
) {
  const values = yield* said.parse(provider).pipe(
    Effect.mapError((error) => new InvalidSettings({ setting: "settings", value: "", reason: error.message }))
  )
  if (options.needsShortName && Option.isNone(values.short_name)) {
    return yield* new InvalidSettings({
      setting: "short_name",
      value: "",
      reason: "is required: pass --short-name, set SMSBOOK_SHORT_NAME, or put short_name in smsbook.json"
    })
  }
  const spam = Option.getOrUndefined(values.spam_period_seconds)
  if (spam !== undefined && !/^\s*\d{1,15}\s*$/.test(spam)) {
    return yield* new InvalidSettings({ setting: "spam_period_seconds", value: spam, reason: "must be a whole number of seconds" })
  }
  const overrides: Partial<Account.Settings> = Object.fromEntries(
    (["short_name", "short_code", "user", "time_zone"] as const).flatMap((key) =>
      Option.isSome(values[key]) ? [[key, values[key].value]] : []
    )
  )
  const account = yield* Effect.fromResult(
    Account.make({ ...overrides, ...(spam === undefined ? {} : { spam_period_seconds: Number(spam) }) })
  ).pipe(Effect.mapError(({ field, value, reason }) => new InvalidSettings({ setting: field, value, reason })))
  const carrier = Option.getOrUndefined(values.carrier)
  const lockWait = Option.getOrUndefined(values.lock_wait)
  if (lockWait !== undefined && !/^\s*\d{1,9}(\.\d+)?\s*$/.test(lockWait)) {
    return yield* new InvalidSettings({ setting: "lock_wait", value: lockWait, reason: "must be a number of seconds (0 fails at once)" })
  }
  return {
    store: Option.getOrElse(values.store, () => defaultStore),
    account,
    ...(carrier === undefined ? {} : { carrier }),
    ...(lockWait === undefined ? {} : { lockWait: Duration.seconds(Number(lockWait)) })
  } satisfies Resolved
})

export const configFile = "smsbook.json"

/**
 * The settings of `./smsbook.json`: none when there is none, a refusal when it is there but cannot be read or is not
 * settings (ignored, an unreadable file sent a command to another book: `./smsbook.db`, created by an import).
 */
export const fileSettings = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  const text = yield* fs.readFileString(configFile).pipe(
    Effect.map(Option.some),
    Effect.catch((error) =>
      error.reason._tag === "NotFound"
        // No file, unless it is a link to nothing: that too is a file meant to be read.
        ? Effect.flatMap(Effect.option(fs.readLink(configFile)), (target) =>
          Option.isNone(target)
            ? Effect.succeed(Option.none<string>())
            : Effect.fail(new InvalidSettings({ setting: configFile, value: target.value, reason: "is a link to a file that does not exist" })))
        : Effect.fail(new InvalidSettings({ setting: configFile, value: configFile, reason: `cannot be read: ${Files.reasonOf(error.reason.cause ?? error)}` })))
  )
  return Option.isSome(text) ? yield* Effect.fromResult(fromFile(text.value, configFile)) : {}
})

/** `error` with its setting named where it was said ({@link origin}): `resolve` names settings by their key. */
export const namedWhereSaid = (error: InvalidSettings, flags: Given, file: Given): InvalidSettings =>
  isKey(error.setting) ? new InvalidSettings({ setting: origin(error.setting, flags, file), value: error.value, reason: error.reason }) : error

/**
 * Flags, then environment, then `./smsbook.json` (if present), then defaults. A refused setting is named where it was
 * said ({@link origin}): `--spam-period`, `SMSBOOK_SPAM_PERIOD` or `smsbook.json: spam_period_seconds`.
 */
export const load = Effect.fnUntraced(function*(flags: Given, options: { readonly needsShortName: boolean }) {
  const file = yield* fileSettings
  const resolved = yield* resolve(layered([fromGiven(flags), fromEnvironment(), fromGiven(file)]), options).pipe(
    Effect.mapError((error) => namedWhereSaid(error, flags, file))
  )
  return { ...resolved, storeSaidAt: origin("store", flags, file) } satisfies Resolved
})
