/**
 * Arbitraries: fast-check generators of the domain's stored values, shared by the packages' property tests, with the
 * text of every field drawn from what each test needs to reach (plain, hostile, or shaped like the real thing).
 */
import { Message } from "@smsbook/core"
import * as fc from "fast-check"

/** The text fields of a stored message. */
export type MessageTextField = "message_id" | "id" | "short_code" | "country" | "msisdn" | "message" | "created_by"

/**
 * Any stored message, its optional fields present or absent, its text fields drawn from `text(field)`, its counts,
 * flags, statuses, types, tags and creation time from their whole ranges.
 */
export const storedMessage = (text: (field: MessageTextField) => fc.Arbitrary<string>): fc.Arbitrary<Message.Stored> =>
  fc.record({
    message_id: text("message_id"),
    id: text("id"),
    short_code: text("short_code"),
    country: text("country"),
    msisdn: text("msisdn"),
    direction: fc.constantFrom(...Message.Direction.literals),
    status: fc.constantFrom(...Message.statuses),
    message: text("message"),
    total_recipients: fc.nat(),
    sent_count: fc.nat(),
    error_count: fc.nat(),
    total_monitors: fc.nat(),
    is_scheduled: fc.boolean(),
    is_billable: fc.boolean(),
    created_at: fc.integer({ min: 0, max: 4_102_444_800_000 }),
    created_by: text("created_by"),
    type: fc.constantFrom(Message.INDIVIDUAL, Message.GROUP),
    tags: fc.array(fc.string(), { maxLength: 3 }),
    segments: fc.integer({ min: 1, max: 10 })
  }, {
    requiredKeys: [
      "message_id", "short_code", "direction", "status", "message", "total_recipients", "sent_count", "error_count",
      "total_monitors", "is_scheduled", "is_billable", "created_at", "type", "tags", "segments"
    ]
  })
