/**
 * The server makes no spans for Effect's in-memory tracer (nobody reads them), but a tracer installed
 * by whoever embeds it still receives the request's and the use case's spans.
 */
import { Account } from "@smsbook/core"
import { Context, Effect, Exit, Layer, Scope, Tracer } from "effect"
import { HttpServer } from "effect/http"
import { NetAddress } from "effect/net"
import { describe, expect, it } from "vitest"
import * as Server from "../src/Server.ts"

/** Serves over a memory store with a recording tracer installed, answers one contact read, returns the span names seen. */
const spansOfOneRead = async () => {
  const names: Array<string> = []
  const recording = Tracer.make({
    span(options) {
      names.push(options.name)
      return Tracer.nativeTracer.span(options)
    }
  })
  const served = Server.layer({
    store: "memory:",
    host: "127.0.0.1",
    port: 0,
    noAuth: true,
    account: { ...Account.defaults, short_name: "ACME" },
    log: () => {}
  })
  const scope = Effect.runSync(Scope.make())
  try {
    const context = await Effect.runPromise(
      Layer.buildWithScope(Layer.provide(served, Layer.succeed(Tracer.Tracer, recording)), scope)
    )
    const url = NetAddress.formatUrlUnsafe(Context.get(context, HttpServer.HttpServer).address, "http")
    const answer = await fetch(`${url}/contacts/447400123456`)
    expect(answer.status).toBe(404)
    return names
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

describe("tracing", () => {
  it("an installed tracer receives the request's span and the use case's", async () => {
    const names = await spansOfOneRead()
    expect(names).toEqual(expect.arrayContaining(["GET", "ContactBook.getContact"]))
  })
})
