/**
 * How a contract test runs: over a fresh store from the adapter's layer, with the account of the
 * fixtures and a `TestClock` at the fixtures' epoch. Every section registers its tests through one.
 */
import { it } from "@effect/vitest"
import { Account, type Carrier, type ContactStore, type MessageStore } from "@smsbook/core"
import { Effect, Layer, type Scope } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import * as Fixtures from "../Fixtures.ts"

/** What an adapter provides: both stores, its carrier, and a view of what the carrier was handed. */
export type Ports = ContactStore.ContactStore | MessageStore.MessageStore | Carrier.Carrier | Carrier.Outbox

/** What a test body may use: the ports, the account, and a scope. */
export type Env = Ports | Account.Account | Scope.Scope

export interface Options {
  /** fast-check runs per property; each run builds a fresh store (default 20). */
  readonly numRuns?: number
  /** Fibers racing each other in the concurrency tests (default 8). */
  readonly racers?: number
  /** Per-test timeout in milliseconds (default: vitest's). */
  readonly timeout?: number
}

export interface Harness {
  /** One test over a fresh store, the clock at the epoch; `account` replaces the fixtures' settings. */
  readonly test: (title: string, body: () => Effect.Effect<unknown, unknown, Env>, account?: Account.Settings) => void
  /** A property: every generated case runs over its own fresh store. */
  readonly property: <T>(title: string, arbitrary: fc.Arbitrary<T>, body: (value: T) => Effect.Effect<unknown, unknown, Env>) => void
  /** How many fibers the concurrency tests race. */
  readonly racers: number
}

export const make = (makeLayer: () => Layer.Layer<Ports, unknown>, options: Options = {}): Harness => {
  const numRuns = options.numRuns ?? 20
  const timeout = options.timeout
  const environment = (account: Account.Settings) => Layer.merge(makeLayer(), Account.layer(account))
  const atEpoch = <A, E, R>(body: () => Effect.Effect<A, E, R>) => Effect.andThen(TestClock.setTime(Fixtures.epoch), Effect.suspend(body))
  return {
    racers: options.racers ?? 8,
    test: (title, body, account = Fixtures.settings) =>
      it.effect(title, () => atEpoch(body).pipe(Effect.provide(environment(account))), timeout),
    property: (title, arbitrary, body) =>
      it(title, () =>
        fc.assert(
          fc.asyncProperty(arbitrary, (value) =>
            Effect.runPromise(
              atEpoch(() => body(value)).pipe(Effect.scoped, Effect.provide(Layer.merge(environment(Fixtures.settings), TestClock.layer())))
            ).then(() => undefined)),
          { numRuns }
        ), timeout)
  }
}
