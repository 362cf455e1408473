/**
 * `smsbook init`: a new book and its `smsbook.json` — the account settings from flags, or asked for
 * on a terminal — so later commands need neither flags nor environment.
 */
import { InvalidParameter } from "@smsbook/core"
import * as Store from "@smsbook/store/Store"
import { Effect, Option } from "effect"
import { Command, Flag, Prompt } from "effect/cli"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import * as CliErrors from "../CliErrors.ts"
import * as GlobalFlags from "../GlobalFlags.ts"
import * as Files from "../internal/files.ts"
import * as OutputPath from "../internal/outputPath.ts"
import * as Output from "../Output.ts"
import * as Settings from "../Settings.ts"

type Key = Exclude<keyof Settings.Given, "store">

/** What a terminal is asked, in order, for the settings no flag gave. */
const questions: ReadonlyArray<readonly [Key, string]> = [
  ["short_name", "Short name prefixed to every text (e.g. ACME)"],
  ["short_code", "Number messages are sent from (blank: none)"],
  ["time_zone", "IANA time zone of dates (blank: UTC)"],
  ["user", "User recorded as created_by (blank: none)"]
]

const ask = (message: string) => Prompt.run(Prompt.String({ message, default: "" }))

/** Whether anything is at `path`, a link to nothing included. */
const isThere = (path: string): boolean => {
  try {
    fs.lstatSync(path)
    return true
  } catch {
    return false
  }
}

/** Refuses to replace an existing settings file at `path` (or a link there) unless `force`, before anything is written. */
const checkReplace = (path: string, force: boolean) =>
  !force && isThere(path)
    ? Effect.fail(new InvalidParameter({ parameter: "--force", value: path, reason: `${path} exists already: pass --force to replace it` }))
    : Effect.void

/** Where writing `path` lands: the file a link there leads to (settings kept elsewhere and linked stay linked). */
const landing = (path: string): string => {
  try {
    return fs.realpathSync(path)
  } catch {
    return fs.lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true
      ? nodePath.resolve(nodePath.dirname(path), fs.readlinkSync(path))
      : path
  }
}

/**
 * Writes `settings` as `path` whole: into a temporary file renamed into place (through a link, onto the file it leads
 * to), so no reader sees half of it.
 */
const writeConfig = (path: string, settings: Settings.Given) =>
  Effect.try({
    try: () => {
      const target = landing(path)
      const partial = Files.partialPath(target)
      try {
        fs.writeFileSync(partial, `${JSON.stringify(settings, null, 2)}\n`, { flag: "wx" })
        fs.renameSync(partial, target)
      } finally {
        fs.rmSync(partial, { force: true })
      }
    },
    catch: (error) => new CliErrors.FileFailure({ path, reason: Files.reasonOf(error) })
  })

export const command = Command.make(
  "init",
  {
    ...GlobalFlags.flags,
    force: Flag.Boolean("force").pipe(Flag.withDescription(`Replace an existing ${Settings.configFile}`), Flag.withDefault(false)),
    noInput: Flag.Boolean("no-input").pipe(
      Flag.withDescription("Never ask, even on a terminal: take the flags as they are"),
      Flag.withDefault(false)
    )
  },
  Effect.fnUntraced(function*(input) {
    const given: { -readonly [K in keyof Settings.Given]: string } = {}
    yield* GlobalFlags.storeFlag(input.store)
    const flagged: ReadonlyArray<readonly [keyof Settings.Given, Option.Option<string>]> = [
      ["store", input.store],
      ["short_name", input.shortName],
      ["short_code", input.shortCode],
      ["user", input.user],
      ["time_zone", input.timeZone],
      ["spam_period_seconds", input.spamPeriod],
      ["lock_wait", input.wait]
    ]
    for (const [key, value] of flagged) if (Option.isSome(value)) given[key] = value.value
    // Prompts only for a person at a terminal: a script (no terminal, --json, --no-input) gets no question.
    if (process.stdin.isTTY === true && process.stdout.isTTY === true && !input.json && !input.noInput) {
      for (const [key, question] of questions) {
        if (given[key] !== undefined) continue
        const answer = (yield* ask(question)).trim()
        if (answer !== "") given[key] = answer
      }
    }
    // Checked exactly as every later command will read them (the environment under the flags), before anything
    // is written; only what was given here goes into the file.
    const resolved = yield* Settings.resolve(Settings.layered([Settings.fromGiven(given), Settings.fromEnvironment()]), { needsShortName: false })
      .pipe(Effect.mapError((error) => Settings.namedWhereSaid(error, given, {})))
    const location = Store.locate(resolved.store)
    const existed = "path" in location && fs.existsSync(location.path)
    // smsbook.json must not be the book (`--store smsbook.json`, or a link to the book): writing it would destroy it.
    if (OutputPath.storeFiles(resolved.store).some((kept) => OutputPath.clashes(Settings.configFile, kept.path))) {
      return yield* new InvalidParameter({
        parameter: "--store",
        value: resolved.store,
        reason: `is ${Settings.configFile} itself, or the file it links to: init writes its settings there, which would destroy the book; keep the book under another name`
      })
    }
    // A book in memory is gone when init ends: every later command would find an empty one.
    if (("kind" in location && location.kind === "memory") || ("path" in location && location.path === ":memory:")) {
      return yield* new InvalidParameter({
        parameter: "--store",
        value: resolved.store,
        reason: "is a book in memory, gone when this command ends: name a SQLite file or a PostgreSQL database"
      })
    }
    yield* checkReplace(Settings.configFile, input.force)
    yield* GlobalFlags.checkResolvedStore(resolved, { create: true })
    // Opening the store creates and migrates it; then the settings that name it are written (a store that cannot be
    // opened leaves the settings as they were).
    yield* Effect.provide(Effect.void, GlobalFlags.storeLayer(resolved))
    yield* writeConfig(Settings.configFile, given)
    const result = {
      config_file: Settings.configFile,
      settings: given,
      store: resolved.store,
      store_created: "path" in location ? !existed : false
    }
    yield* Output.print(input.json, result, (r) => [
      `wrote ${r.config_file}${Object.keys(r.settings).length === 0 ? " (no settings: defaults apply)" : ""}`,
      ...Object.entries(r.settings).map(([key, value]) => `  ${key}: ${value}`),
      r.store_created ? `created the book ${r.store}` : `the book ${r.store} is ready (it existed; left as it was)`
    ])
  })
).pipe(
  Command.withDescription(`Create a book and write ${Settings.configFile} with the account settings (asked for on a terminal)`),
  Command.withExamples([
    { command: "smsbook init --short-name ACME --time-zone Europe/London --no-input", description: "A book and settings for ACME" }
  ])
)
