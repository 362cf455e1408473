/**
 * Results: unwrap an Effect `Result` in a test, failing the test with what came instead, so an example
 * reads as the value it expects rather than as a branch on success or failure.
 */
import { Result } from "effect"
import { expect } from "vitest"

/** The success of `result`; a failure fails the test, naming it. */
export const success = <A, E>(result: Result.Result<A, E>): A => {
  if (Result.isFailure(result)) expect.fail(`expected a success, got ${JSON.stringify(result.failure)}`)
  return result.success
}

/** The failure of `result`; a success fails the test, naming it. */
export const failure = <A, E>(result: Result.Result<A, E>): E => {
  if (Result.isSuccess(result)) expect.fail(`expected a failure, got ${JSON.stringify(result.success)}`)
  return result.failure
}
