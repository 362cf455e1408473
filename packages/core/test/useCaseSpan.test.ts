import { Fixtures } from "@smsbook/testing"
import { Effect, Layer, Tracer } from "effect"
import { describe, expect, it } from "vitest"
import * as Account from "../src/Account.ts"
import * as ContactBook from "../src/ContactBook.ts"
import * as MemoryStore from "../src/MemoryStore.ts"
import * as Messaging from "../src/Messaging.ts"

/** A tracer that remembers each span's name and its parent's, then hands the span to Effect's own. */
const recording = () => {
  const spans: Array<{ readonly name: string; readonly parent: string | undefined }> = []
  const tracer = Tracer.make({
    span(options) {
      const parent = options.parent._tag === "Some" && options.parent.value._tag === "Span" ? options.parent.value.name : undefined
      spans.push({ name: options.name, parent })
      return Tracer.nativeTracer.span(options)
    }
  })
  return { spans, tracer }
}

describe("use cases run per request", () => {
  it("keep their named span, a child of the caller's, for a tracer that collects them", async () => {
    const { spans, tracer } = recording()
    const number = Fixtures.msisdn(1)
    await Effect.runPromise(
      Effect.gen(function*() {
        yield* ContactBook.createContact(number, { first_name: "Ada" })
        yield* ContactBook.getContact(number)
        yield* Messaging.sendToContact({ msisdn: number, message: "hello" })
        yield* Effect.exit(ContactBook.getContact(Fixtures.msisdn(2)))
      }).pipe(
        Effect.withSpan("request"),
        Effect.withTracer(tracer),
        Effect.provide(Layer.mergeAll(MemoryStore.layer, Account.layer(Fixtures.settings)))
      )
    )
    expect(spans).toEqual([
      { name: "request", parent: undefined },
      { name: "ContactBook.createContact", parent: "request" },
      { name: "ContactBook.getContact", parent: "request" },
      { name: "Messaging.sendToContact", parent: "request" },
      { name: "ContactBook.getContact", parent: "request" }
    ])
  })
})
