/**
 * Fixtures: the account, the clock's starting instant, and builders of numbers, contacts, import rows
 * and stored messages that every test of the ports and use cases starts from.
 */
import { type Account, type ContactBook, type Contact, type Message, Msisdn } from "@smsbook/core"
import { Result } from "effect"

/** The account every test acts for: a 4-character short name leaves a budget of 154. */
export const settings: Account.Settings = {
  short_name: "Acme",
  short_code: "60777",
  user: "operator",
  time_zone: "UTC",
  spam_period_seconds: 86_400
}

/** Sat, 21 Nov 2026 10:15:00 GMT: every contract test starts its `TestClock` here. */
export const epoch = Date.UTC(2026, 10, 21, 10, 15, 0)

/** A valid GB mobile number, `447400` + `n` on 6 digits (0 ≤ n ≤ 999999): ordered as `n` is. */
export const msisdn = (n: number): Msisdn.Msisdn => Result.getOrThrow(Msisdn.parse(`447400${String(n).padStart(6, "0")}`))

/**
 * A contact as a port stores it, for tests that need a status or flag no use case sets directly.
 * `full_name` follows the names given, unless `fields` sets it too.
 */
export const contact = (n: number, fields: Partial<Omit<Contact.Contact, "msisdn">> = {}): Contact.Contact => {
  const number = msisdn(n)
  const first_name = fields.first_name ?? ""
  const last_name = fields.last_name ?? ""
  return {
    msisdn: number,
    ...Msisdn.split(number),
    first_name,
    last_name,
    full_name: [first_name, last_name].filter((name) => name !== "").join(" "),
    added_from: "API",
    status: "SUBSCRIBED",
    tags: [],
    profile_uid: n.toString(16).padStart(32, "0"),
    monitoring: false,
    ...fields
  }
}

/** An import row for number `n`. */
export const candidate = (
  n: number,
  fields: Partial<Pick<ContactBook.Candidate, "first_name" | "last_name" | "tags">> = {}
): ContactBook.Candidate => {
  const number = msisdn(n)
  return { msisdn: number, ...Msisdn.split(number), first_name: "", last_name: "", tags: [], ...fields }
}

/** A message nobody has been handed yet: no counts, not scheduled, not billable (its stored row and its wire answer). */
export const unsent = {
  total_recipients: 0,
  sent_count: 0,
  error_count: 0,
  total_monitors: 0,
  is_scheduled: false,
  is_billable: false
} as const

/** A group message as `POST /messages/send` leaves it: MT, PENDING, type 2, nobody reached. */
export const pendingGroup = { ...unsent, direction: "MT", status: "PENDING", type: 2 } as const

/** An individual MT message ready to go to one number, created at {@link epoch}. */
export const message = (messageId: string, fields: Partial<Message.Stored> = {}): Message.Stored => ({
  message_id: messageId,
  short_code: settings.short_code,
  direction: "MT",
  status: "READY",
  message: "hello",
  ...unsent,
  total_recipients: 1,
  is_billable: true,
  created_at: epoch,
  type: 1,
  tags: [],
  segments: 1,
  ...fields
})

/** A group message just created for `tags`, not yet processed. */
export const groupMessage = (messageId: string, tags: ReadonlyArray<string>, fields: Partial<Message.Stored> = {}): Message.Stored =>
  message(messageId, { ...pendingGroup, tags, ...fields })

/** The `n`-th of a run of stored messages: ids `msg-000000` on, three to an instant so keysets meet ties of `created_at`. */
export const nthMessage = (n: number, fields: Partial<Message.Stored> = {}): Message.Stored =>
  message(`msg-${String(n).padStart(6, "0")}`, { status: "SENT", sent_count: 1, created_at: epoch + Math.floor(n / 3), ...fields })
