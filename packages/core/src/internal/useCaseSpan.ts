/**
 * The span of a use case that runs once per request or per message. `Effect.fn(name)` makes an
 * `Error` on every call to remember its call site: about 5 µs a call with tracing off in a loop, and
 * 14–17 µs of a 175–190 µs HTTP read in the server, where the stack is deeper. These use cases are
 * `Effect.fnUntraced(body, useCaseSpan(name))` instead: the same named span for a tracer that collects
 * them, no stack capture.
 */
import { Effect } from "effect"

export const useCaseSpan = (name: string) => Effect.withSpan(name, undefined, { captureStackTrace: false })
