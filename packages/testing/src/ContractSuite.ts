/**
 * The port contract suite: one set of vitest tests every adapter of the storage ports runs against
 * itself, a section per concern (see `contract/`). An adapter's test file is a call to `run`.
 */
import { describe } from "@effect/vitest"
import type { Layer } from "effect"
import * as AntiSpam from "./contract/AntiSpam.ts"
import * as Concurrency from "./contract/Concurrency.ts"
import * as ContactList from "./contract/ContactList.ts"
import * as Contacts from "./contract/Contacts.ts"
import * as GroupSends from "./contract/GroupSends.ts"
import * as Harness from "./contract/Harness.ts"
import * as Imports from "./contract/Imports.ts"
import * as IndividualSends from "./contract/IndividualSends.ts"
import * as Laws from "./contract/Laws.ts"
import * as MessageList from "./contract/MessageList.ts"
import * as OptOut from "./contract/OptOut.ts"
import * as Ports from "./contract/Ports.ts"

export type { Env, Options, Ports } from "./contract/Harness.ts"

/** The sections, in the order they run: the interface's endpoints first, then the laws. */
const sections = [Contacts, ContactList, Imports, IndividualSends, GroupSends, MessageList, AntiSpam, OptOut, Concurrency, Ports, Laws]

/**
 * Registers the contract suite for an adapter (vitest `describe`/`it` blocks, so call it at the top
 * level of a test file). `makeLayer` is called once per test and once per property run and must give
 * a fresh, empty store — a new temporary file, a new schema — because every test starts from nothing.
 *
 * Every test runs under a `TestClock` set to the fixtures' epoch (a jump of decades from 0) and moved
 * by the tests: an adapter whose internals run on Effect's `Clock` (pool reapers, timeouts) must pin
 * them to the live clock, or they spin or never fire.
 */
export const run = (name: string, makeLayer: () => Layer.Layer<Harness.Ports, unknown>, options: Harness.Options = {}): void => {
  const harness = Harness.make(makeLayer, options)
  describe(`contract: ${name}`, () => {
    for (const section of sections) section.register(harness)
  })
}
