/**
 * The span of a use case that runs once per request or per message. `Effect.fn(name)` makes an
 * `Error` on every call to remember its call site: about 5 µs a call with tracing off in a loop, and
 * 14–17 µs of a 175–190 µs HTTP read in the server, where the stack is deeper. These use cases are
 * `Effect.fnUntraced(body, useCaseSpan(name))` instead: the same named span for a tracer that collects
 * them, no stack capture. With spans off (`References.TracerEnabled`, as `smsbook serve` runs without a
 * tracer) there is none at all: Effect's no-op span still changed the fiber's context twice over (its
 * parent span and its stack frame, in and out), 4–6 µs of a contact read.
 */
import { Effect, References } from "effect"

export const useCaseSpan = (name: string) => {
  const span = Effect.withSpan(name, undefined, { captureStackTrace: false })
  return <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(Effect.service(References.TracerEnabled), (enabled) => enabled ? span(effect) : effect)
}
