/**
 * The flags every command shares (`--store`, `--json`, account settings, text and list flags) and
 * the environment they build: the account and the store's ports, as one layer.
 */
import { Account, InvalidStoreUrl } from "@smsbook/core"
// The store module alone: the package root would load the PostgreSQL driver for every command.
import * as Store from "@smsbook/store/Store"
import { Effect, Layer, Option } from "effect"
import { Flag } from "effect/cli"
import * as Settings from "./Settings.ts"

/** A text flag that may be absent. */
export const optionalText = (name: string, description: string) =>
  Flag.String(name).pipe(Flag.withDescription(description), Flag.optional)

/** A comma-separated list (`--tags a,b`): trimmed, blanks dropped. */
export const splitList = (text: string): ReadonlyArray<string> =>
  text.split(",").map((item) => item.trim()).filter((item) => item !== "")

export const json = Flag.Boolean("json").pipe(
  Flag.withDescription("Print machine-readable JSON on stdout"),
  Flag.withDefault(false)
)

export const account = {
  shortName: optionalText("short-name", "Account short name prefixed to every text (env SMSBOOK_SHORT_NAME)"),
  shortCode: optionalText("short-code", "Number messages are sent from (env SMSBOOK_SHORT_CODE)"),
  user: optionalText("user", "User recorded as created_by (env SMSBOOK_USER)"),
  timeZone: optionalText("time-zone", "IANA time zone of created_on, default UTC (env SMSBOOK_TIME_ZONE)"),
  spamPeriod: optionalText("spam-period", "Anti-spam period in seconds, default 86400 (env SMSBOOK_SPAM_PERIOD)")
}

/** The flags every command that opens the store takes: `--store`, `--json` and the account settings. */
export const flags = {
  store: optionalText(
    "store",
    "Store URL: a file path or sqlite:PATH (default ./smsbook.db), postgres://…, memory: (env SMSBOOK_STORE)"
  ),
  json,
  ...account
}

type Text = Option.Option<string>

export interface CommonInput {
  readonly store?: Text
  readonly shortName: Text
  readonly shortCode: Text
  readonly user: Text
  readonly timeZone: Text
  readonly spamPeriod: Text
}

/**
 * The settings of a command: its flags over the environment, `smsbook.json` and the defaults. `--store ''` is
 * refused (exit 2): an empty value in a script is a mistake, not a wish for the default book.
 */
export const settings = Effect.fnUntraced(function*(input: CommonInput, options: { readonly needsShortName: boolean }) {
  const store = input.store === undefined ? undefined : Option.getOrUndefined(input.store)
  if (store !== undefined && store.trim() === "") {
    return yield* new InvalidStoreUrl({
      url: store,
      reason: "is empty: give a file path, sqlite:PATH, postgres://… or memory: (or leave --store out)"
    })
  }
  return yield* Settings.load({
    store,
    short_name: Option.getOrUndefined(input.shortName),
    short_code: Option.getOrUndefined(input.shortCode),
    user: Option.getOrUndefined(input.user),
    time_zone: Option.getOrUndefined(input.timeZone),
    spam_period_seconds: Option.getOrUndefined(input.spamPeriod)
  }, options)
})

export interface StoreOptions<E2> {
  readonly needsShortName: boolean
  /**
   * Runs before the store is opened, given its URL: where a command refuses outputs that would write over the
   * store or an input (see `internal/outputPath.ts`), so a refused command has not even created the book.
   */
  readonly check?: ((store: string) => Effect.Effect<void, E2>) | undefined
}

/** Runs `effect` with the account and the store the flags name. */
export const withStore = <A, E, R, E2 = never>(
  input: CommonInput,
  effect: Effect.Effect<A, E, R>,
  options: StoreOptions<E2> = { needsShortName: false }
) =>
  Effect.flatMap(settings(input, options), (resolved) =>
    Effect.andThen(
      options.check === undefined ? Effect.void : options.check(resolved.store),
      Effect.provide(
        effect,
        Layer.merge(Account.layer(resolved.account), Store.layer(resolved.store))
      )
    ))

/** The account flags, all unsaid: for commands that take only some of them. */
export const noAccountFlags: CommonInput = {
  shortName: Option.none(),
  shortCode: Option.none(),
  user: Option.none(),
  timeZone: Option.none(),
  spamPeriod: Option.none()
}
