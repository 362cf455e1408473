/**
 * Child script: seeds N individual messages into a store (a SQLite path or any store URL) through the store's own
 * port (`MessageStore.insert`, 10,000 per `transaction`), so `smsbook report` has N rows to write.
 * Usage: node scripts/bench/SeedMessages.ts STORE COUNT — prints `{"seeded":N,"seconds":S}`.
 */
import { MessageStore } from "@smsbook/core"
import { Store } from "@smsbook/store"
import { Effect } from "effect"
import * as MessagesData from "./MessagesData.ts"

const batchSize = 10_000

/**
 * Inserts `count` messages in batches: each batch is one transaction, so the seed costs what the
 * store's bulk path costs, and memory holds one batch at a time.
 */
const take = <A>(items: Iterator<A>, count: number): Array<A> => {
  const taken: Array<A> = []
  for (let next = items.next(); !next.done; next = items.next()) {
    taken.push(next.value)
    if (taken.length === count) break
  }
  return taken
}

export const seed = (count: number) =>
  Effect.gen(function*() {
    const store = yield* MessageStore.MessageStore
    const messages = MessagesData.stored(count)
    let seeded = 0
    for (let batch = take(messages, batchSize); batch.length > 0; batch = take(messages, batchSize)) {
      yield* store.transaction(Effect.forEach(batch, (message) => store.insert(message), { discard: true }))
      seeded += batch.length
    }
    return seeded
  })

const [path, countText] = process.argv.slice(2)
if (path === undefined || countText === undefined) {
  console.error("usage: SeedMessages.ts STORE COUNT")
  process.exit(2)
}
const started = performance.now()
const seeded = await Effect.runPromise(Effect.provide(seed(Number(countText)), Store.layer(path)))
console.log(JSON.stringify({ seeded, seconds: (performance.now() - started) / 1000 }))
