/**
 * Books for the reliability laws: what a law needs of a store kind (a fresh book reached through several
 * connections), the account the laws run under, and how to run a use case on one connection.
 */
import { Account, MemoryStore, Ports } from "@smsbook/core"
import { Effect, Layer, type Scope } from "effect"

/** The account every law runs under. */
export const account: Account.Settings = { ...Account.defaults, short_name: "Shop" }

/** What a use case needs: the ports of one connection and the account. */
export type Env = Ports.Ports | Account.Account

/** Runs `effect` against `services` (one connection of a book). */
export const on = (services: Ports.Services) => <A, E>(effect: Effect.Effect<A, E, Env>): Effect.Effect<A, E> =>
  Effect.provide(effect, Layer.merge(Layer.succeedContext(Ports.context(services)), Account.layer(account)))

/** A way to open a fresh book `connections` times; each open is its own connection (or pool). */
export interface Kind {
  readonly name: string
  /** Opens a fresh book and gives `count` connections to it, closed with the scope. */
  readonly open: (count: number) => Effect.Effect<ReadonlyArray<Ports.Services>, unknown, Scope.Scope>
  readonly dispose: () => Promise<void>
}

/** The memory store: one connection however many are asked for (its laws are the sequential ones). */
export const memory: Kind = {
  name: "memory",
  open: (count) => Effect.map(MemoryStore.make, (services) => Array.from({ length: count }, () => services)),
  dispose: async () => {}
}
