/**
 * Failures that say "another transaction was in the way" (SQLite busy, PostgreSQL deadlock or
 * serialization failure), and the retry of a whole transaction with backoff while they occur.
 */
import { Effect } from "effect"
import { StoreFailure } from "@smsbook/core"

// The failures the adapters marked as contention when they built them from the driver's error:
// StoreFailure itself carries only text, and its text is not a contract to match on.
const contended = new WeakSet<StoreFailure>()

/** `failure`, remembered as caused by contention. */
export const mark = (failure: StoreFailure): StoreFailure => {
  contended.add(failure)
  return failure
}

/** Whether `error` is a failure an adapter marked as contention. */
const isContended = (error: unknown): boolean => error instanceof StoreFailure && contended.has(error)

/** Attempts in all before the last contention failure is returned. */
export const attempts = 10

/**
 * Runs `transaction(effect)` again, after 5, 10, 20… ms (at most 1 s, jittered so two losers do not
 * collide again), while it fails with contention. Real time, not `Clock`: it waits for other
 * processes, which a test clock does not move.
 */
export const retrying = (
  transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | StoreFailure, R>
) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | StoreFailure, R> => {
  const run = (attempt: number): Effect.Effect<A, E | StoreFailure, R> =>
    Effect.catchIf(transaction(effect), (error) => attempt < attempts && isContended(error), () => {
      const pause = Math.min(1000, 5 * 2 ** (attempt - 1)) * (0.5 + Math.random())
      return Effect.andThen(
        Effect.promise(() => new Promise<void>((resume) => setTimeout(resume, pause))),
        Effect.suspend(() => run(attempt + 1))
      )
    })
  return run(1)
}
