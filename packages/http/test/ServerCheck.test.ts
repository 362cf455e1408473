/**
 * What `Server.check` refuses before a server starts: among it an account `Account.make` would refuse, since an
 * embedding service may build its account by hand (`{ ...Account.defaults, short_name: … }`, as the README shows).
 */
import { Account } from "@smsbook/core"
import { Effect, Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Server from "../src/Server.ts"

const checked = (account: Account.Settings) => Effect.runSync(Effect.result(Server.check({ store: "./book.db", account })))

describe("Server.check", () => {
  it("law: an account is served exactly when Account.make takes it, and a refusal names the setting", () => {
    const value = fc.constantFrom("ACME", "", " ", "two\nlines", "\u001b[31m", "\u200b", "Europe/London", "+01:00", "A".repeat(158))
    fc.assert(fc.property(fc.constantFrom("short_name", "short_code", "user", "time_zone"), value, (field, text) => {
      const account = { ...Account.defaults, [field]: text }
      const made = Account.make(account)
      const served = checked(account)
      expect(Result.isSuccess(served)).toBe(Result.isSuccess(made))
      if (Result.isFailure(served)) expect(served.failure).toMatchObject({ field })
    }))
    expect(Result.isFailure(checked({ ...Account.defaults, spam_period_seconds: -1 }))).toBe(true)
  })
})
