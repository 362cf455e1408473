/**
 * `smsbook keys create --name NAME | list | revoke ID`: the API keys of `smsbook serve`, kept in
 * the store as hashes; a key's secret is printed once, when it is created.
 */
import { InvalidField, InvalidParameter } from "@smsbook/core"
import * as ApiKeyStore from "@smsbook/store/ApiKeyStore"
import { Effect, Option, Redacted } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import * as GlobalFlags from "../GlobalFlags.ts"
import * as Output from "../Output.ts"

const storeFlags = { store: GlobalFlags.flags.store, wait: GlobalFlags.flags.wait, json: GlobalFlags.json }

/** Runs `use` with the key store of the store the flags (or environment, or smsbook.json) name. */
const withKeys = <A, E>(
  input: { readonly store: Option.Option<string>; readonly wait: Option.Option<string> },
  use: (keys: ApiKeyStore.ApiKeyStore["Service"]) => Effect.Effect<A, E>
) =>
  Effect.flatMap(GlobalFlags.settings({ ...GlobalFlags.noAccountFlags, store: input.store, wait: input.wait }, { needsShortName: false }), (resolved) =>
    Effect.andThen(
      GlobalFlags.checkResolvedStore(resolved, { create: false }),
      Effect.provide(Effect.flatMap(Effect.service(ApiKeyStore.ApiKeyStore), use), GlobalFlags.storeLayer(resolved))
    ))

const describe = (key: ApiKeyStore.ApiKey) =>
  `${key.id}  ${key.name}  created ${key.created_at}${key.revoked_at === undefined ? "" : `  revoked ${key.revoked_at}`}`

/** The store's refusal of a key's name, naming the flag as typed (`--name`), as every flag error does. */
const asFlag = (error: InvalidField): InvalidField =>
  error.field === "name" ? new InvalidField({ field: "--name", value: error.value, reason: error.reason }) : error

const create = Command.make(
  "create",
  { ...storeFlags, name: Flag.String("name").pipe(Flag.withDescription("What the key is for (shown by keys list)")) },
  (input) =>
    withKeys(input, (keys) =>
      Effect.flatMap(keys.create(input.name).pipe(Effect.catchTag("InvalidField", (error) => Effect.fail(asFlag(error)))), ({ key, secret }) =>
        Output.print(input.json, { ...key, key: Redacted.value(secret) }, (created) => [
          `key ${created.id} (${created.name}) created; it is shown only now:`,
          created.key
        ])))
).pipe(Command.withDescription("Create an API key: prints it once, stores only its hash"))

const list = Command.make("list", storeFlags, (input) =>
  withKeys(input, (keys) => Effect.flatMap(keys.list, (all) => Output.print(input.json, all, (rows) => rows.length === 0 ? ["no keys"] : rows.map(describe))))
).pipe(Command.withDescription("List the API keys (never their secrets)"))

const revoke = Command.make(
  "revoke",
  { ...storeFlags, id: Argument.String("id").pipe(Argument.withDescription("The key's id, as keys list shows it")) },
  (input) =>
    withKeys(input, (keys) =>
      Effect.flatMap(keys.revoke(input.id), (revoked) =>
        Option.isNone(revoked)
          ? Effect.fail(new InvalidParameter({ parameter: "ID", value: input.id, reason: "no API key has this id (see smsbook keys list)" }))
          : Output.print(input.json, revoked.value, (key) => [`revoked ${describe(key)}`])))
).pipe(Command.withDescription("Revoke an API key: requests with it answer 401 from now on"))

export const command = Command.make("keys").pipe(
  Command.withDescription("API keys of smsbook serve: create, list, revoke"),
  Command.withSubcommands([create, list, revoke])
)
