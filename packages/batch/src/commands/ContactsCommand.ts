/**
 * `smsbook contacts list|get|add|edit|rm|export|opt-out|resubscribe|forget`: the contact book, one
 * use case per subcommand, printed as the interface's wire shape with `--json`.
 */
import { Contact, ContactBook, InvalidParameter, Query } from "@smsbook/core"
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import * as Format from "../Format.ts"
import * as GlobalFlags from "../GlobalFlags.ts"
import * as ContactExport from "../jobs/ContactExport.ts"
import * as Contacts from "../jobs/Contacts.ts"
import * as OutputPath from "../internal/outputPath.ts"
import * as Output from "../Output.ts"

const msisdn = Argument.String("msisdn").pipe(
  Argument.withDescription("The number: 447400123456, +44 7400 123456, or 07400 123456 with --default-country GB")
)
const tagsFlag = (description: string) => GlobalFlags.optionalText("tags", description)
// Text, read as the interface's `Status` parameter is (any case, `SUSCRIBED`), not a choice of exact spellings.
const statusFlag = Flag.String("status").pipe(
  GlobalFlags.notBlank("leave --status out for contacts of every status"),
  Flag.withDescription(`Only contacts in this status (${Contact.statuses.join(", ")}; any case)`),
  Flag.optional
)
const queryFlag = GlobalFlags.filterText("query", "Only contacts whose msisdn or names contain this text", "leave --query out for every contact")

/** The interface's parameter names, as the flags the user typed. */
const flagNames = {
  Limit: "--limit",
  Start: "--start",
  Query: "--query",
  Status: "--status",
  tags: "--tags",
  msisdn: "MSISDN",
  first_name: "--first-name",
  last_name: "--last-name"
}
const namingFlags = GlobalFlags.namingFlags(flagNames)

/** Only the flags that were given, so absent ones leave stored values alone. */
const present = <A>(entries: ReadonlyArray<readonly [string, Option.Option<A>]>): Record<string, A> =>
  Object.fromEntries(entries.flatMap(([key, value]) => Option.isSome(value) ? [[key, value.value]] : []))

const list = (value: Option.Option<string>): ReadonlyArray<string> => Option.match(value, { onNone: () => [], onSome: GlobalFlags.splitList })

const printContact = (json: boolean) => (contact: Contact.Contact) => Output.print(json, contact, Format.contactDetail)

/** The positional number, read with `--default-country`. */
const number = (input: { readonly msisdn: string; readonly defaultCountry: Option.Option<string> }) =>
  GlobalFlags.readNumber("MSISDN", input.msisdn, input.defaultCountry)

const confirmFlag = (what: string) =>
  Flag.Boolean("confirm").pipe(Flag.withDescription(`Required: says you mean to ${what}`), Flag.withDefault(false))

const requireConfirm = (confirmed: boolean, what: string, msisdnText: string) =>
  confirmed ? Effect.void : Effect.fail(
    new InvalidParameter({ parameter: "--confirm", value: msisdnText, reason: `${what}: repeat the command with --confirm` })
  )

const listCommand = Command.make(
  "list",
  {
    ...GlobalFlags.flags,
    query: queryFlag,
    status: statusFlag,
    limit: GlobalFlags.filterText("limit", "Records to return (default 50, at most 1000; all of them: contacts export)", "leave --limit out for 50"),
    start: GlobalFlags.filterText("start", "Offset of the first record (default 0)", "leave --start out to start at the first"),
    short: Flag.Boolean("short").pipe(Flag.withDescription("Reduced form: msisdn, names, status"), Flag.withDefault(false))
  },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.gen(function*() {
        const contacts = yield* namingFlags(ContactBook.listContacts({
          ...present([["Query", input.query], ["Status", input.status], ["Limit", input.limit], ["Start", input.start]]),
          shortResults: input.short ? "1" : "0"
        }))
        yield* Output.print(input.json, contacts, Format.contacts)
      })
    )
).pipe(
  Command.withDescription("List contacts, filtered by text or status, a page at a time"),
  Command.withExamples([
    { command: "smsbook contacts list --status SUBSCRIBED --limit 100", description: "The first 100 subscribed contacts" }
  ])
)

const get = Command.make(
  "get",
  { ...GlobalFlags.flags, msisdn, defaultCountry: GlobalFlags.defaultCountry },
  (input) =>
    GlobalFlags.withStore(input, Effect.gen(function*() {
      yield* printContact(input.json)(yield* ContactBook.getContact(yield* number(input)))
    }))
).pipe(
  Command.withDescription("Show one contact"),
  Command.withExamples([{ command: "smsbook contacts get 07400123456 --default-country GB", description: "A national number" }])
)

const add = Command.make(
  "add",
  {
    ...GlobalFlags.flags,
    msisdn,
    defaultCountry: GlobalFlags.defaultCountry,
    firstName: GlobalFlags.optionalText("first-name", "First name"),
    lastName: GlobalFlags.optionalText("last-name", "Last name"),
    tags: tagsFlag("Comma-separated tags, e.g. news,vip")
  },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.gen(function*() {
        const contact = yield* namingFlags(Contacts.add(
          yield* number(input),
          present([["first_name", input.firstName], ["last_name", input.lastName]]),
          Option.isSome(input.tags) ? GlobalFlags.splitList(input.tags.value) : undefined
        ))
        yield* printContact(input.json)(contact)
      })
    )
).pipe(
  Command.withDescription("Create a contact: SUBSCRIBED, or CANCELLED if the number opted out before (suppression list)"),
  Command.withExamples([
    { command: "smsbook contacts add 447400123458 --first-name Ann --tags news,vip", description: "Ann, in two groups" }
  ])
)

const edit = Command.make(
  "edit",
  {
    ...GlobalFlags.flags,
    msisdn,
    defaultCountry: GlobalFlags.defaultCountry,
    firstName: GlobalFlags.optionalText("first-name", "First name"),
    lastName: GlobalFlags.optionalText("last-name", "Last name"),
    tags: tagsFlag("Comma-separated tags: REPLACES the contact's tags (see --add-tags, --remove-tags)"),
    addTags: GlobalFlags.optionalText("add-tags", "Comma-separated tags to add to the contact's"),
    removeTags: GlobalFlags.optionalText("remove-tags", "Comma-separated tags to take away (any case)"),
    monitoring: Flag.Literals("monitoring", ["true", "false"]).pipe(
      Flag.withDescription("Whether the contact gets a copy of every group send"),
      Flag.optional
    )
  },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.gen(function*() {
        // A tag too long came from --add-tags unless --tags replaced the list.
        const naming = GlobalFlags.namingFlags({ ...flagNames, tags: Option.isSome(input.tags) ? "--tags" : "--add-tags" })
        const contact = yield* naming(ContactBook.changeContact(
          yield* number(input),
          present([["first_name", input.firstName], ["last_name", input.lastName], ["monitoring", input.monitoring]]),
          {
            set: Option.isSome(input.tags) ? GlobalFlags.splitList(input.tags.value) : undefined,
            added: list(input.addTags),
            removed: list(input.removeTags)
          }
        ))
        yield* printContact(input.json)(contact)
      })
    )
).pipe(
  Command.withDescription("Change a contact's names, tags (set, add, remove) or monitoring"),
  Command.withExamples([
    { command: "smsbook contacts edit 447400123456 --add-tags vip --remove-tags trial", description: "Add one tag, drop another" }
  ])
)

const rm = Command.make(
  "rm",
  { ...GlobalFlags.flags, msisdn, defaultCountry: GlobalFlags.defaultCountry },
  (input) =>
    GlobalFlags.withStore(input, Effect.gen(function*() {
      const deleted = yield* ContactBook.deleteContact(yield* number(input))
      yield* Output.print(input.json, deleted, ({ msisdn }) => [`deleted ${msisdn} (an opt-out stays on the suppression list)`])
    }))
).pipe(Command.withDescription("Delete a contact; an opt-out of its number stays on the suppression list"))

const optOut = Command.make(
  "opt-out",
  { ...GlobalFlags.flags, msisdn, defaultCountry: GlobalFlags.defaultCountry },
  (input) => GlobalFlags.withStore(input, Effect.gen(function*() {
    yield* printContact(input.json)(yield* ContactBook.optOut(yield* number(input)))
  }))
).pipe(Command.withDescription("Opt a contact out (CANCELLED, and its number suppressed): it receives nothing more"))

const resubscribe = Command.make(
  "resubscribe",
  { ...GlobalFlags.flags, msisdn, defaultCountry: GlobalFlags.defaultCountry, confirm: confirmFlag("resubscribe an opted-out number") },
  (input) =>
    GlobalFlags.withStore(input, Effect.gen(function*() {
      yield* requireConfirm(input.confirm, "resubscribing lifts an opt-out the person asked for", input.msisdn)
      yield* printContact(input.json)(yield* ContactBook.resubscribe(yield* number(input)))
    }))
).pipe(
  Command.withDescription("Resubscribe a CANCELLED contact and lift its number's suppression (needs --confirm)"),
  Command.withExamples([{ command: "smsbook contacts resubscribe 447400123457 --confirm", description: "The person asked to come back" }])
)

const forget = Command.make(
  "forget",
  { ...GlobalFlags.flags, msisdn, defaultCountry: GlobalFlags.defaultCountry, confirm: confirmFlag("erase the number completely") },
  (input) =>
    GlobalFlags.withStore(input, Effect.gen(function*() {
      yield* requireConfirm(input.confirm, "forgetting erases the contact and its opt-out: a later import subscribes it again", input.msisdn)
      const forgotten = yield* ContactBook.forget(yield* number(input))
      yield* Output.print(input.json, forgotten, ({ msisdn }) => [`forgot ${msisdn}: contact and suppression entry erased`])
    }))
).pipe(
  Command.withDescription("Erase a number completely, its opt-out included, for a data-erasure request (needs --confirm)"),
  Command.withExamples([{ command: "smsbook contacts forget 447400123456 --confirm", description: "A data-erasure request" }])
)

const exportCommand = Command.make(
  "export",
  {
    ...GlobalFlags.flags,
    tags: Flag.String("tags").pipe(
      GlobalFlags.notEmptyList("leave --tags out for contacts with any tags or none"),
      Flag.withDescription("Only contacts carrying one of these comma-separated tags (any case)"),
      Flag.optional
    ),
    status: statusFlag,
    query: queryFlag,
    format: Flag.Literals("format", ["csv", "json", "jsonl"]).pipe(
      Flag.withDescription("csv (default; the import's columns), json (one array) or jsonl (one contact a line)"),
      Flag.optional
    ),
    ...GlobalFlags.exportFlags
  },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.gen(function*() {
        const format = yield* Output.exportFormat(input)
        const status = yield* namingFlags(Effect.fromResult(Query.contactStatus(Option.getOrUndefined(input.status))))
        // `/dev/stdout` and the like are written as `-` is: the data owns stdout.
        const out = Output.exportOut(input.out)
        const result = yield* Output.exporting(
          input.json,
          out,
          ContactExport.write(
            { tags: list(input.tags), status, query: Option.getOrUndefined(input.query) },
            out,
            { format, excel: input.excel }
          )
        )
        yield* Output.exported(input.json, out, result, (r) => [
          `${r.rows.toLocaleString("en-US")} contacts exported as ${r.format}${r.out === "-" ? "" : ` to ${r.out}`}`
        ])
      }),
      { check: OutputPath.exportCheck(input.out) }
    )
).pipe(
  Command.withDescription("Export contacts (all, or by tags, status, text) as spreadsheet-safe CSV, JSON or JSON Lines"),
  Command.withExamples([
    { command: "smsbook contacts export --tags news --out news.csv", description: "One group, ready to import elsewhere" },
    { command: "smsbook contacts export --format jsonl --status CANCELLED", description: "Opted-out contacts, one JSON a line" }
  ])
)

export const command = Command.make("contacts").pipe(
  Command.withDescription("The contact book: list, get, add, edit, rm, export, opt-out, resubscribe, forget"),
  Command.withSubcommands([listCommand, get, add, edit, rm, exportCommand, optOut, resubscribe, forget])
)
