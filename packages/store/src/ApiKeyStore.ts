/**
 * API keys of an smsbook server: created with a name, shown once, kept only as a SHA-256 hash,
 * listed, revoked, and verified on every request. Every store provides one beside its ports (`Store.layer`).
 */
import * as Crypto from "node:crypto"
import { InvalidField, type StoreFailure } from "@smsbook/core"
import { Clock, Context, Effect, Layer, Option, Redacted } from "effect"

/** A key as listed: never its secret. `revoked_at` is set once revoked; times are ISO 8601 UTC. */
export interface ApiKey {
  readonly id: string
  readonly name: string
  readonly created_at: string
  readonly revoked_at?: string
}

/** A key just created: its secret, shown this once and never stored. */
export interface Created {
  readonly key: ApiKey
  readonly secret: Redacted.Redacted<string>
}

export class ApiKeyStore extends Context.Service<ApiKeyStore, {
  /** A new key named `name` (1–100 characters, not blank). */
  readonly create: (name: string) => Effect.Effect<Created, InvalidField | StoreFailure>
  /** Every key, revoked ones included, in creation order. */
  readonly list: Effect.Effect<ReadonlyArray<ApiKey>, StoreFailure>
  /** Revokes the key `id`; none when there is no such key. Revoking twice keeps the first time. */
  readonly revoke: (id: string) => Effect.Effect<Option.Option<ApiKey>, StoreFailure>
  /**
   * The live (not revoked) key whose secret this is, if any. A key found live is remembered for
   * `verifiedFor` (1 s): a revocation made through this store shows at once, one made by another
   * process (`smsbook keys revoke` beside a running server) within that bound.
   */
  readonly verify: (secret: string) => Effect.Effect<Option.Option<ApiKey>, StoreFailure>
}>()("@smsbook/store/ApiKeyStore") {}

/** The prefix of every secret, so a leaked key is recognisable (secret scanners, logs). */
export const secretPrefix = "smsbook_"

/** A stored key: the listed fields, the hash of its secret and epoch-millisecond times. */
export interface Row {
  readonly id: string
  readonly name: string
  readonly hash: string
  readonly created_at: number
  readonly revoked_at: number | undefined
}

/** SHA-256 of the secret, hex: what is stored and looked up (a 256-bit random secret needs no slow hash). */
export const hash = (secret: string): string => Crypto.hash("sha256", secret, "hex")

/** A fresh secret (32 random bytes, base64url) and a fresh id (8 random bytes, hex). */
export const generate = (): { readonly id: string; readonly secret: string } => ({
  id: Crypto.randomBytes(8).toString("hex"),
  secret: secretPrefix + Crypto.randomBytes(32).toString("base64url")
})

/**
 * How long a key verified live is trusted without asking the storage again, in ms: the bound on how
 * late another process's revocation takes effect. A server answering thousands of requests a second
 * then reads its keys once a second instead of once a request.
 */
export const verifiedFor = 1000

/** At most this many verified keys are remembered; past it the memory starts over (keys are few). */
export const maxRemembered = 1024

/** The name checked: trimmed, 1–100 characters. */
export const checkName = (name: string): Effect.Effect<string, InvalidField> => {
  const trimmed = name.trim()
  return trimmed === "" || [...trimmed].length > 100
    ? Effect.fail(new InvalidField({ field: "name", value: name, reason: "must be 1 to 100 characters" }))
    : Effect.succeed(trimmed)
}

export const toApiKey = (row: Row): ApiKey => ({
  id: row.id,
  name: row.name,
  created_at: new Date(row.created_at).toISOString(),
  ...(row.revoked_at === undefined ? {} : { revoked_at: new Date(row.revoked_at).toISOString() })
})

/**
 * A key store over three storage operations, so every adapter shares the rules (names checked,
 * secrets generated and hashed here, revocation keeps the first time).
 */
export const make = (storage: {
  readonly insert: (row: Row) => Effect.Effect<void, StoreFailure>
  readonly all: Effect.Effect<ReadonlyArray<Row>, StoreFailure>
  /** Sets `revoked_at` when not set yet; the row after, if the id exists. */
  readonly revoke: (id: string, at: number) => Effect.Effect<Option.Option<Row>, StoreFailure>
  readonly byHash: (hash: string) => Effect.Effect<Option.Option<Row>, StoreFailure>
}): ApiKeyStore["Service"] => {
  // Live keys by hash, with the time they were read: only live keys, so a key created by another
  // process is never refused from memory, and a secret is never kept, only its hash.
  const verified = new Map<string, { readonly key: ApiKey; readonly at: number }>()
  const lookUp = (wanted: string, now: number) =>
    Effect.map(storage.byHash(wanted), (row) => {
      const live = Option.map(Option.filter(row, (found) => found.revoked_at === undefined), toApiKey)
      if (Option.isSome(live)) {
        if (verified.size >= maxRemembered) verified.clear()
        verified.set(wanted, { key: live.value, at: now })
      } else {
        verified.delete(wanted)
      }
      return live
    })
  return ApiKeyStore.of({
    create: (name) =>
      Effect.gen(function*() {
        const checked = yield* checkName(name)
        const { id, secret } = generate()
        const row: Row = { id, name: checked, hash: hash(secret), created_at: yield* Clock.currentTimeMillis, revoked_at: undefined }
        yield* storage.insert(row)
        return { key: toApiKey(row), secret: Redacted.make(secret) }
      }),
    list: Effect.map(storage.all, (rows) => rows.map(toApiKey)),
    revoke: (id) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.map(storage.revoke(id, now), (row) => {
          if (Option.isSome(row)) verified.delete(row.value.hash)
          return Option.map(row, toApiKey)
        })),
    verify: (secret) => {
      if (!secret.startsWith(secretPrefix)) return Effect.succeed(Option.none())
      const wanted = hash(secret)
      return Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const known = verified.get(wanted)
        // A clock that went back also asks again.
        return known !== undefined && now >= known.at && now - known.at < verifiedFor
          ? Effect.succeed(Option.some(known.key))
          : lookUp(wanted, now)
      })
    }
  })
}

/** Keys in memory, gone with the process (tests, `memory:` stores). */
export const layerMemory: Layer.Layer<ApiKeyStore> = Layer.sync(ApiKeyStore, () => {
  const rows = new Map<string, Row>()
  return make({
    insert: (row) => Effect.sync(() => void rows.set(row.id, row)),
    all: Effect.sync(() => [...rows.values()].sort((a, b) => a.created_at - b.created_at)),
    revoke: (id, at) =>
      Effect.sync(() => {
        const row = rows.get(id)
        if (row === undefined) return Option.none()
        const revoked = row.revoked_at === undefined ? { ...row, revoked_at: at } : row
        rows.set(id, revoked)
        return Option.some(revoked)
      }),
    byHash: (wanted) => Effect.sync(() => Option.fromNullishOr([...rows.values()].find((row) => row.hash === wanted)))
  })
})
