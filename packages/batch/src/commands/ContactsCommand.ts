/**
 * `smsbook contacts list|get|add|edit|rm|opt-out|resubscribe`: the contact book, one use case per
 * subcommand, printed as the interface's wire shape with `--json`.
 */
import { Contact, ContactBook } from "@smsbook/core"
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import * as Format from "../Format.ts"
import * as GlobalFlags from "../GlobalFlags.ts"
import * as Contacts from "../jobs/Contacts.ts"
import * as Output from "../Output.ts"

const msisdn = Argument.String("msisdn").pipe(Argument.withDescription("Country code + number, e.g. 447400123456"))
const tagList = GlobalFlags.optionalText("tags", "Comma-separated tags, e.g. news,vip")

/** Only the flags that were given, so absent ones leave stored values alone. */
const present = <A>(entries: ReadonlyArray<readonly [string, Option.Option<A>]>): Record<string, A> =>
  Object.fromEntries(entries.flatMap(([key, value]) => Option.isSome(value) ? [[key, value.value]] : []))

const printContact = (json: boolean) => (contact: Contact.Contact) =>
  Output.print(json, contact, Format.contactDetail)

const list = Command.make(
  "list",
  {
    ...GlobalFlags.flags,
    query: GlobalFlags.optionalText("query", "Only contacts whose msisdn or names contain this text"),
    status: Flag.Literals("status", Contact.statuses).pipe(Flag.withDescription("Only contacts in this status"), Flag.optional),
    limit: GlobalFlags.optionalText("limit", "Records to return (default 50, at most 1000)"),
    start: GlobalFlags.optionalText("start", "Offset of the first record (default 0)"),
    short: Flag.Boolean("short").pipe(Flag.withDescription("Reduced form: msisdn, names, status"), Flag.withDefault(false))
  },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.gen(function*() {
        const contacts = yield* ContactBook.listContacts({
          ...present([["Query", input.query], ["Status", input.status], ["Limit", input.limit], ["Start", input.start]]),
          shortResults: input.short ? "1" : "0"
        })
        yield* Output.print(input.json, contacts, (all) => all.length === 0 ? ["no contacts"] : all.map(Format.contact))
      })
    )
).pipe(Command.withDescription("List contacts, filtered by text or status"))

const get = Command.make(
  "get",
  { ...GlobalFlags.flags, msisdn },
  (input) => GlobalFlags.withStore(input, Effect.flatMap(ContactBook.getContact(input.msisdn), printContact(input.json)))
).pipe(Command.withDescription("Show one contact"))

const add = Command.make(
  "add",
  {
    ...GlobalFlags.flags,
    msisdn,
    firstName: GlobalFlags.optionalText("first-name", "First name"),
    lastName: GlobalFlags.optionalText("last-name", "Last name"),
    countryCode: GlobalFlags.optionalText("country-code", "Country calling code; must agree with the msisdn"),
    tags: tagList
  },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.gen(function*() {
        const contact = yield* Contacts.add(
          input.msisdn,
          present([["first_name", input.firstName], ["last_name", input.lastName], ["country_code", input.countryCode]]),
          Option.isSome(input.tags) ? GlobalFlags.splitList(input.tags.value) : undefined
        )
        yield* printContact(input.json)(contact)
      })
    )
).pipe(Command.withDescription("Create a contact (SUBSCRIBED, added from API)"))

const edit = Command.make(
  "edit",
  {
    ...GlobalFlags.flags,
    msisdn,
    firstName: GlobalFlags.optionalText("first-name", "First name"),
    lastName: GlobalFlags.optionalText("last-name", "Last name"),
    tags: GlobalFlags.optionalText("tags", "Comma-separated tags; replaces the contact's tags"),
    monitoring: Flag.Literals("monitoring", ["true", "false"]).pipe(
      Flag.withDescription("Whether the contact gets a copy of every group send"),
      Flag.optional
    )
  },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.flatMap(
        ContactBook.editContact(input.msisdn, {
          ...present([["first_name", input.firstName], ["last_name", input.lastName], ["monitoring", input.monitoring]]),
          ...(Option.isSome(input.tags) ? { tags: GlobalFlags.splitList(input.tags.value) } : {})
        }),
        printContact(input.json)
      )
    )
).pipe(Command.withDescription("Change a contact's names, tags or monitoring"))

const rm = Command.make(
  "rm",
  { ...GlobalFlags.flags, msisdn },
  (input) =>
    GlobalFlags.withStore(
      input,
      Effect.flatMap(ContactBook.deleteContact(input.msisdn), (deleted) =>
        Output.print(input.json, deleted, ({ msisdn }) => [`deleted ${msisdn}`]))
    )
).pipe(Command.withDescription("Delete a contact"))

const statusMove = (name: string, description: string, useCase: typeof ContactBook.optOut) =>
  Command.make(
    name,
    { ...GlobalFlags.flags, msisdn },
    (input) => GlobalFlags.withStore(input, Effect.flatMap(useCase(input.msisdn), printContact(input.json)))
  ).pipe(Command.withDescription(description))

export const command = Command.make("contacts").pipe(
  Command.withDescription("The contact book: list, get, add, edit, rm, opt-out, resubscribe"),
  Command.withSubcommands([
    list,
    get,
    add,
    edit,
    rm,
    statusMove("opt-out", "Opt a contact out (CANCELLED): it receives nothing more", ContactBook.optOut),
    statusMove("resubscribe", "Explicitly resubscribe an opted-out contact (CANCELLED → SUBSCRIBED)", ContactBook.resubscribe)
  ])
)
