/**
 * The flags every command shares (`--store`, `--json`, account settings, text and list flags) and
 * the environment they build: the account and the store's ports, as one layer. Just over 400 lines as one module:
 * each flag's checks sit beside the flag, and the layer is built from what they checked.
 */
import { Account, Country, InvalidField, InvalidParameter, InvalidStoreUrl, Msisdn } from "@smsbook/core"
// The store module alone: the package root would load the PostgreSQL driver for every command.
import * as Store from "@smsbook/store/Store"
import { Effect, Layer, Option, Result } from "effect"
import { Flag } from "effect/cli"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { StoreNotFound } from "./CliErrors.ts"
import * as CsvDialect from "./internal/csv/dialect.ts"
import * as DefaultCountry from "./internal/defaultCountry.ts"
import * as Files from "./internal/files.ts"
import * as Visible from "./internal/visible.ts"
import * as Output from "./Output.ts"
import * as Settings from "./Settings.ts"

/** A text flag that may be absent. */
export const optionalText = (name: string, description: string) =>
  Flag.String(name).pipe(Flag.withDescription(description), Flag.optional)

/**
 * Refuses a blank value of a filter flag (a usage error): `--status "$UNSET"` in a script is a mistake, and read
 * as no filter it would widen what the command touches. `hint` says how to ask for no filter.
 */
export const notBlank = (hint: string) =>
  Flag.filter((text: string) => text.trim() !== "", () => `must not be blank: ${hint}`)

/** An optional filter flag: a blank value is refused ({@link notBlank}, `hint` saying how to ask for no filter). */
export const filterText = (name: string, description: string, hint: string) =>
  Flag.String(name).pipe(notBlank(hint), Flag.withDescription(description), Flag.optional)

/** Refuses a list flag that names nothing (`--tags ""`, `--tags ,`): as {@link notBlank}, it would widen the command. */
export const notEmptyList = (hint: string) =>
  Flag.filter((text: string) => splitList(text).length > 0, () => `must name at least one: ${hint}`)

/** A comma-separated list (`--tags a,b`): trimmed, blanks dropped. */
export const splitList = (text: string): ReadonlyArray<string> =>
  text.split(",").map((item) => item.trim()).filter((item) => item !== "")

/** `--default-country`: how numbers written nationally are read, on every command that reads a number. */
export const defaultCountry = optionalText(
  "default-country",
  "Country of numbers written nationally (07400 123456): an ISO code (GB), a name or a calling code (44)"
)

/** The flags of a command that reads a contact file (`import`, `suppressions import`): how its numbers and bytes read. */
export const fileFlags = {
  defaultCountry: optionalText(
    "default-country",
    "Country of numbers written nationally (07400 123456), when a row has no country column: GB, or 44"
  ),
  encoding: optionalText("encoding", "Input encoding (utf-8, windows-1252, latin1, utf-16le…); detected by default")
}

/** `--encoding` as given, checked: an encoding iconv-lite does not know is refused before the file is opened. */
export const checkedEncoding = (encoding: Option.Option<string>): Effect.Effect<string | undefined, InvalidParameter> =>
  Option.isNone(encoding) || CsvDialect.encodingExists(encoding.value)
    ? Effect.succeed(Option.getOrUndefined(encoding))
    : Effect.fail(new InvalidParameter({ parameter: "--encoding", value: encoding.value, reason: "unknown encoding" }))

/**
 * `--default-country` of a command that reads senders as they come (`serve`, `dispatch`), checked before it starts:
 * a mistyped country would otherwise show only when an inbound STOP from a national number is refused.
 */
export const checkedCountry = (country: Option.Option<string>): Effect.Effect<string | undefined, InvalidParameter> =>
  Option.isNone(country) ? Effect.succeed(undefined) : Effect.fromResult(DefaultCountry.check(country.value))

/**
 * A number the user typed for `flag` (or an argument), read as imports read it: international, or
 * national in `--default-country`. A refusal names the flag; a `--default-country` that is no country is refused
 * whatever the number (it was taken when the number was international, where an import refuses it).
 */
export const readNumber = (flag: string, text: string, country: Option.Option<string>) =>
  Effect.andThen(checkedCountry(country), Effect.fromResult(
    Result.mapError(
      // The country is read as an import's country cells are: `GB`, `GBR`, `United Kingdom`, `44`.
      Msisdn.parse(text, Option.isSome(country) ? { defaultCountry: country.value, readCountry: Country.lookup } : {}),
      (error) =>
        new InvalidParameter({
          parameter: flag,
          value: text,
          reason: Option.isNone(country) && /^\s*0/.test(text)
            ? `${error.message}; a national number needs --default-country (e.g. --default-country GB)`
            : error.message
        })
    )
  ))

/**
 * Renames the interface's parameter and field names in refusals to the flags the user typed
 * (`Limit` → `--limit`, an item of a list `tags.3` → `--tags`), so an error message names what is on the command line.
 */
export const namingFlags = (names: Readonly<Record<string, string>>) => {
  const known = new Map(Object.entries(names).map(([api, flag]) => [api.toLowerCase(), flag]))
  const lower = { get: (name: string) => known.get(name) ?? known.get(name.replace(/\.\d+$/, "")) }
  return <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | InvalidParameter | InvalidField, R> =>
    Effect.mapError(effect, (error): E | InvalidParameter | InvalidField => {
      if (error instanceof InvalidParameter) {
        const flag = lower.get(error.parameter.toLowerCase())
        if (flag !== undefined) return new InvalidParameter({ parameter: flag, value: error.value, reason: error.reason.replace(/\b(start_date|end_date)\b/g, (api) => lower.get(api) ?? api) })
      }
      if (error instanceof InvalidField) {
        const flag = lower.get(error.field.toLowerCase())
        if (flag !== undefined) return new InvalidField({ field: flag, value: error.value, reason: error.reason })
      }
      return error
    })
}

export const json = Flag.Boolean("json").pipe(
  Flag.withDescription("Print machine-readable JSON on stdout"),
  Flag.withDefault(false)
)

/** Where a data export goes and how Excel should read it: shared by `report`, `contacts export` and `suppressions export`. */
export const exportFlags = {
  out: Flag.String("out").pipe(Flag.withDescription("Output file, or - for stdout (then the summary goes to stderr)"), Flag.withDefault("-")),
  excel: Flag.Boolean("excel").pipe(
    Flag.withDescription("CSV for Excel: a UTF-8 byte order mark and CRLF line ends (accents and emoji read right)"),
    Flag.withDefault(false)
  )
}

/**
 * A setting's flag (`--user`, `--wait`, `--carrier`…). A blank value is refused: read as not given, it would quietly
 * give way to `variable` or `smsbook.json`, so `--user "$UNSET"` in a script would record someone else.
 */
export const settingText = (name: string, variable: string, description: string) =>
  Flag.String(name).pipe(
    notBlank(`leave --${name} out to use ${variable}, smsbook.json or the default`),
    Flag.withDescription(`${description} (env ${variable})`),
    Flag.optional
  )

export const account = {
  shortName: settingText("short-name", "SMSBOOK_SHORT_NAME", "Account short name prefixed to every text"),
  shortCode: settingText("short-code", "SMSBOOK_SHORT_CODE", "Number messages are sent from"),
  user: settingText("user", "SMSBOOK_USER", "User recorded as created_by"),
  timeZone: settingText("time-zone", "SMSBOOK_TIME_ZONE", "IANA time zone of created_on, default UTC"),
  spamPeriod: settingText("spam-period", "SMSBOOK_SPAM_PERIOD", "Anti-spam period in seconds, default 86400")
}

/** The flags every command that opens the store takes: `--store`, `--json` and the account settings. */
export const flags = {
  store: optionalText(
    "store",
    "Store URL: a file path or sqlite:PATH (default ./smsbook.db), postgres://…, memory: (env SMSBOOK_STORE)"
  ),
  json,
  wait: settingText(
    "wait",
    "SMSBOOK_LOCK_WAIT",
    "Seconds to wait for another process writing to the book before failing, default 600"
  ),
  ...account
}

type Text = Option.Option<string>

export interface CommonInput {
  readonly store?: Text
  readonly wait?: Text
  readonly shortName: Text
  readonly shortCode: Text
  readonly user: Text
  readonly timeZone: Text
  readonly spamPeriod: Text
}

/**
 * `--store` as given, `--store ''` refused (exit 2): an empty value in a script is a mistake, not a wish for the
 * default book, and read as not said it gave way to `SMSBOOK_STORE` or `smsbook.json`.
 */
export const storeFlag = (store: Text | undefined): Effect.Effect<string | undefined, InvalidStoreUrl> => {
  const given = store === undefined ? undefined : Option.getOrUndefined(store)
  return given !== undefined && given.trim() === ""
    ? Effect.fail(new InvalidStoreUrl({ url: given, reason: "is empty: give a file path, sqlite:PATH, postgres://… or memory: (or leave --store out)" }))
    : Effect.succeed(given)
}

/** The settings the flags say (`--store ''` refused: {@link storeFlag}), for `Settings.load`. */
export const given = (input: CommonInput): Effect.Effect<Settings.Given, InvalidStoreUrl> =>
  Effect.map(storeFlag(input.store), (store) => ({
    store,
    short_name: Option.getOrUndefined(input.shortName),
    short_code: Option.getOrUndefined(input.shortCode),
    user: Option.getOrUndefined(input.user),
    time_zone: Option.getOrUndefined(input.timeZone),
    spam_period_seconds: Option.getOrUndefined(input.spamPeriod),
    lock_wait: input.wait === undefined ? undefined : Option.getOrUndefined(input.wait)
  }))

/** The settings of a command: its flags over the environment, `smsbook.json` and the defaults. */
export const settings = Effect.fnUntraced(function*(input: CommonInput, options: { readonly needsShortName: boolean }) {
  return yield* Settings.load(yield* given(input), options)
})

/**
 * How a command opens its store: the lock wait the settings say, and, while a SQLite writer waits for
 * another process, a line on stderr saying who holds the book (when the system can tell).
 */
export const storeOptions = (resolved: Settings.Resolved, cacheKiB?: number): Store.Options => ({
  ...(resolved.lockWait === undefined ? {} : { lockWait: resolved.lockWait }),
  ...(cacheKiB === undefined ? {} : { cacheKiB }),
  onLockWait: ({ path, waitedMs, lockWaitMs, holder }) => {
    const who = holder === undefined ? "another process" : `pid ${holder.pid}${holder.command === "" ? "" : ` (${holder.command})`}`
    process.stderr.write(`${
      Visible.show(
        `waiting for the book ${path}: ${who} is writing to it; waited ${Math.round(waitedMs / 1000)} s of ${
          Math.round(lockWaitMs / 1000)
        } s (--wait, SMSBOOK_LOCK_WAIT)`
      )
    }\n`)
  }
})

/** The store of `resolved`, opened as {@link storeOptions} says. */
export const storeLayer = (resolved: Settings.Resolved, cacheKiB?: number) => Store.layer(resolved.store, storeOptions(resolved, cacheKiB))

/** A PostgreSQL URL that cannot be read as a URL, or names no host, before any driver sees it. */
const malformedPostgres = (url: string): string | undefined => {
  if (!URL.canParse(url)) return "is not a valid URL (postgres://user:password@host:port/database)"
  const parsed = new URL(url)
  if (parsed.hostname === "" && !parsed.searchParams.has("host")) return "names no host (postgres://user:password@host:port/database)"
  // The driver decodes them, and a broken escape (`%ZZ`) failed as a connection that could not be made.
  for (const [part, text] of [["user", parsed.username], ["password", parsed.password], ["database", parsed.pathname]] as const) {
    if (!decodes(text)) return `has a ${part} with a broken %-escape (write % itself as %25)`
  }
  return undefined
}

const decodes = (text: string): boolean => {
  try {
    decodeURIComponent(text)
    return true
  } catch {
    return false
  }
}

/**
 * Checks the store URL before anything opens it: a malformed URL is refused (exit 2), and a SQLite
 * book that does not exist is refused unless `create` (only `import` and `init` create a book), so a
 * typo in `--store` never silently opens a new, empty book; where a new book is made, a path that cannot
 * be one is refused too ({@link unmakeableBook}).
 */
export const checkStore = (url: string, options: { readonly create: boolean }): Effect.Effect<void, InvalidStoreUrl | StoreNotFound> => {
  const location = Store.locate(url)
  if (location instanceof InvalidStoreUrl) return Effect.fail(location)
  if (location.kind === "postgres") {
    const reason = malformedPostgres(location.url)
    return reason === undefined ? Effect.void : Effect.fail(new InvalidStoreUrl({ url: location.url.replace(/\/\/[^@/]*@/, "//…@"), reason }))
  }
  if (options.create) {
    const reason = location.kind === "sqlite" ? unmakeableBook(url, location.path) : undefined
    return reason === undefined ? Effect.void : Effect.fail(new InvalidStoreUrl({ url, reason }))
  }
  const missing = missingBook(url)
  return missing === undefined ? Effect.void : Effect.fail(new StoreNotFound({ path: missing }))
}

/** A store URL's scheme mistyped (`sqlte:`, `memroy:`, `postgres:/db`): two letters or more, so `C:\…` stays a path. */
const schemeLike = /^([a-z][a-z0-9+.-]+):/i

/**
 * Why the SQLite book `path` (given as `url`) cannot be made, when it does not exist yet: its name starts with what reads
 * as a mistyped scheme (SQLite made a book named `sqlte:book.db` and the import went there, exit 0), its folder does not
 * exist or is not a folder, or it is a folder itself (SQLite answered only "unable to open database file", exit 1).
 */
const unmakeableBook = (url: string, path: string): string | undefined => {
  const stat = lookAt(path)
  if (stat === "unknown") return undefined
  if (stat !== "absent") return stat.isDirectory() ? "is a directory, not a book: name the book's file in it (--store DIR/smsbook.db)" : undefined
  const scheme = url === path ? schemeLike.exec(url) : null
  if (scheme !== null) {
    return `unknown scheme ${scheme[1]}: (use a file path, sqlite:PATH, postgres://… or memory:; ` +
      `a new book whose file name has a colon in it: ./${url})`
  }
  const folder = nodePath.dirname(nodePath.resolve(path))
  const parent = lookAt(folder)
  if (parent === "unknown") return undefined
  if (parent === "absent") return `names a book in ${nodePath.dirname(path)}, which does not exist: create that folder first, or correct the path`
  if (!parent.isDirectory()) return `names a book in ${nodePath.dirname(path)}, which is not a folder: correct the path`
  return undefined
}

/**
 * {@link checkStore} for the store of `resolved`: a refusal's `field` names where that store was said (`--store`,
 * `SMSBOOK_STORE`, `smsbook.json: store`), as a refused setting's does, so a nightly job's environment is not sent
 * looking for a flag it never passed.
 */
export const checkResolvedStore = (
  resolved: Settings.Resolved,
  options: { readonly create: boolean }
): Effect.Effect<void, InvalidStoreUrl | StoreNotFound> =>
  Effect.mapError(checkStore(resolved.store, options), (error) =>
    resolved.storeSaidAt === undefined || resolved.storeSaidAt === "--store" ? error : Output.carrying(error, { field: resolved.storeSaidAt }))

/**
 * The path of the SQLite book `url` names, when its file does not exist or is empty: SQLite takes an empty file for an
 * empty database, so `messages list --store empty.db` made a book of a file a typo or a failed copy had left.
 */
const missingBook = (url: string): string | undefined => {
  const location = Store.locate(url)
  if (location instanceof InvalidStoreUrl || location.kind !== "sqlite" || location.path === ":memory:") return undefined
  const stat = lookAt(location.path)
  return stat === "absent" || (stat !== "unknown" && stat.isFile() && stat.size === 0) ? location.path : undefined
}

/**
 * What is at `path`: its stats, `"absent"`, or `"unknown"` where the file system will not say (a loop of links, a name
 * too long, a folder it may not search): the book's opening then fails naming the store and why.
 */
const lookAt = (path: string): fs.Stats | "absent" | "unknown" => {
  try {
    return fs.statSync(path, { throwIfNoEntry: false }) ?? "absent"
  } catch {
    return "unknown"
  }
}

export interface StoreOptions<E2> {
  readonly needsShortName?: boolean
  /**
   * What becomes of a SQLite book that does not exist: refused (the default), created (import, init), or read as an
   * empty book that goes when the run ends (`"empty"`: an import's dry run previews the first import on a temporary
   * book, and leaves no file where the book would be).
   */
  readonly create?: boolean | "empty"
  /**
   * Runs before the store is opened, given its URL: where a command refuses outputs that would write over the
   * store or an input (see `internal/outputPath.ts`), so a refused command has not even created the book.
   */
  readonly check?: ((store: string) => Effect.Effect<void, E2>) | undefined
  /**
   * SQLite's page cache in KiB when not the store's default (64 MiB): each job asks for what the way it reads and
   * writes needs (`Import.cacheKiB`, `Report.cacheKiB`, `Broadcast.cacheKiB`), and a large cache only holds memory.
   */
  readonly cacheKiB?: number | undefined
}

/** Runs `effect` with the account and the store the flags name; the store must exist unless `create`. */
export const withStore = <A, E, R, E2 = never>(
  input: CommonInput,
  effect: Effect.Effect<A, E, R>,
  options: StoreOptions<E2> = {}
) =>
  Effect.flatMap(settings(input, { needsShortName: options.needsShortName ?? false }), (resolved) => {
    const run = (store: string) =>
      Effect.provide(effect, Layer.merge(Account.layer(resolved.account), storeLayer({ ...resolved, store }, options.cacheKiB)))
    const missing = options.create === "empty" ? creatableBook(resolved.store) : undefined
    // A book this run creates goes again if the run fails: a mistyped path must not become a book that later
    // commands accept (nothing of the run is in it: its writes were one transaction, rolled back).
    const runCreating = Effect.suspend(() => {
      const claimed = Store.claimNewBook(resolved.store)
      return claimed === undefined ? run(resolved.store) : Effect.onError(run(resolved.store), () => Effect.sync(claimed.discard))
    })
    return Effect.andThen(
      Effect.andThen(
        checkResolvedStore(resolved, { create: options.create !== undefined && options.create !== false }),
        options.check === undefined ? Effect.void : options.check(resolved.store)
      ),
      missing === undefined
        ? options.create === true ? runCreating : run(resolved.store)
        : Effect.acquireUseRelease(
          // A fresh book as the real run would create it (SQLite, so the same import path and memory), in a
          // directory of its own that goes with it.
          Effect.sync(Files.previewDirectory),
          (directory) => run(`sqlite:${nodePath.join(directory, nodePath.basename(missing))}`),
          (directory) => Effect.sync(() => fs.rmSync(directory, { recursive: true, force: true }))
        )
    )
  })

/**
 * The path of the SQLite book `url` names when it does not exist and could be created there (its directory exists
 * and may be written): what a run with `create: "empty"` previews on a temporary book instead. Otherwise
 * `undefined`, and the run opens `url` itself (and fails where the real run would).
 */
const creatableBook = (url: string): string | undefined => {
  const missing = missingBook(url)
  if (missing === undefined) return undefined
  try {
    fs.accessSync(nodePath.dirname(nodePath.resolve(missing)), fs.constants.W_OK)
    return missing
  } catch {
    return undefined
  }
}

/** The account flags, all unsaid: for commands that take only some of them. */
export const noAccountFlags: CommonInput = {
  shortName: Option.none(),
  shortCode: Option.none(),
  user: Option.none(),
  timeZone: Option.none(),
  spamPeriod: Option.none()
}
