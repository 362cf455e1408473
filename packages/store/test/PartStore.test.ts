/**
 * The dispatcher's queue opened by URL, without a database server: a PostgreSQL book that cannot be reached fails
 * as the store itself does (the URL's own connect timeout, the problem named, no password).
 */
import * as net from "node:net"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as PartStore from "../src/PartStore.ts"
import * as Store from "../src/Store.ts"

// A server that accepts connections and never answers: a connection attempt ends only at its timeout.
const sockets = new Set<net.Socket>()
const silent = net.createServer((socket) => void sockets.add(socket))
let port = 0

beforeAll(async () => {
  await new Promise<void>((listening) => silent.listen(0, "127.0.0.1", listening))
  const address = silent.address()
  port = typeof address === "object" && address !== null ? address.port : 0
})

afterAll(async () => {
  for (const socket of sockets) socket.destroy()
  await new Promise((closed) => silent.close(closed))
})

const failureOf = <A, E>(layer: Layer.Layer<A, E>) => Effect.runPromise(Effect.flip(Layer.build(layer).pipe(Effect.scoped)))

describe("PartStore on PostgreSQL, no server needed", () => {
  it("a server that does not answer fails the queue after the URL's connect_timeout, as the store: the connection named, no password", async () => {
    const url = `postgres://smsbook:s3cret-Pa55@127.0.0.1:${port}/smsbook?connect_timeout=1`
    const started = performance.now()
    const queue = await failureOf(PartStore.layer(url))
    expect(performance.now() - started).toBeLessThan(4000)
    const store = await failureOf(Store.layer(url))
    expect(queue).toMatchObject({ _tag: "StoreUnavailable", url: `postgres://smsbook:***@127.0.0.1:${port}/smsbook?connect_timeout=1` })
    expect(queue).toMatchObject({ problem: "connection" })
    expect(store).toMatchObject({ _tag: "StoreUnavailable", problem: "connection" })
    expect(JSON.stringify(queue) + String(queue)).not.toContain("s3cret-Pa55")
  }, 20_000)
})
