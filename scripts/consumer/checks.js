/**
 * What a service does with @smsbook/core, as plain JavaScript: shared by the ESM and the require() consumers.
 * Throws on the first answer that differs from the platform's rules.
 */
import assert from "node:assert/strict"

/** Runs every check against the package's root namespace and its `Sms` subpath; returns how many passed. */
export const check = (core, sms) => {
  const { Msisdn, Sms, HttpDate, ExternalId, Errors } = core
  let passed = 0
  const same = (actual, expected) => {
    assert.deepEqual(actual, expected)
    passed++
  }

  same(sms.analyze, Sms.analyze)
  same(Sms.analyzePrefixed("ACME", "Hello").segments, 1)
  same(Sms.analyzePrefixed("ACME", "x".repeat(154)).segments, 1)
  same(Sms.analyzePrefixed("ACME", "x".repeat(155)).segments, 2)
  same(Sms.analyzePrefixed("ACME", "Price: 5€").units, 16)
  same(Sms.analyzePrefixed("ACME", "Don’t miss it").encoding, "UCS-2")
  same(Sms.budget("ACME"), 154)
  same(Sms.gsmSafe("Don’t miss it…"), "Don't miss it...")

  const parsed = Msisdn.parse("07400 123456", { defaultCountry: "GB" })
  same(parsed._tag, "Success")
  same(parsed.success, "447400123456")
  const refused = Msisdn.parse("07700 900123", { defaultCountry: "GB" })
  same(refused._tag, "Failure")
  same(refused.failure._tag, "InvalidMsisdn")
  same(Errors.info(refused.failure).code, "INVALID_MSISDN")

  const tooLong = Sms.checkBudget("ACME", "x".repeat(155))
  same(tooLong._tag, "Failure")
  same(tooLong.failure instanceof Errors.MessageTooLong, true)
  same(tooLong.failure instanceof Error, true)
  same(Errors.info(tooLong.failure), { code: "MESSAGE_TOO_LONG", number: 1002, status: 400 })

  const date = HttpDate.parse("Sat, 21 Nov 2026 10:15:00 GMT")
  same(date._tag, "Success")
  same(HttpDate.format(date.success), "Sat, 21 Nov 2026 10:15:00 GMT")
  same(HttpDate.parse("Sat, 31 Apr 2026 10:15:00 GMT")._tag, "Failure")

  same(ExternalId.parse(12345).success, "12345")
  same(ExternalId.parse("x".repeat(41)).failure._tag, "ExternalIdTooLong")
  return passed
}
