/**
 * The benchmark's messages: N seeded stored messages (mostly individual MT, some inbound MO, texts
 * with commas, quotes, line breaks, formulas and emoji), and the wire rows a report writes for them.
 */
import type { Message } from "@smsbook/core"
import { below, mulberry32, pick, type Random } from "./Prng.ts"

/** 2026-10-01T00:00:00Z: messages are spread over the 30 days after it, in creation order. */
const start = Date.UTC(2026, 9, 1)
const span = 30 * 86_400_000

const texts = [
  "Your order has shipped and will arrive tomorrow",
  "Reminder: your appointment is on Tuesday at 10:30, reply STOP to opt out",
  "Sale now on, 20% off everything \"this weekend\" only",
  "=HYPERLINK(\"http://example.com\",\"click\")",
  "-10% on shoes, today only",
  "Line one\nline two",
  "Thanks! 🎉 See you soon",
  "Código de verificación: 482913",
  "Your code is 551204. It expires in 10 minutes. Do not share it with anyone, not even our staff, who will never ask " +
  "for it by phone, SMS or email. If you did not ask for a code, ignore this message.",
  "Shop opens at 9"
] as const
const inbound = ["STOP", "Yes please", "What time do you open?", "START", "@support help"] as const

const hex16 = (i: number): string => i.toString(16).padStart(16, "0")

/**
 * The `index`-th of `count` messages: created_at grows with the index (so the report's order is the
 * index order) and message_id is 12 hex digits of the time then 16 of the index, as the store's ids are.
 */
const make = (random: Random, index: number, count: number): Message.Stored => {
  const createdAt = start + Math.floor(index * span / count)
  const messageId = createdAt.toString(16).padStart(12, "0") + hex16(index)
  const msisdn = `4474${String(below(random, 10)).padStart(2, "0")}${String(below(random, 1_000_000)).padStart(6, "0")}`
  if (below(random, 20) === 0) {
    return {
      message_id: messageId,
      short_code: "88000",
      country: "44",
      msisdn,
      direction: "MO",
      status: "SENT",
      message: pick(random, inbound),
      total_recipients: 0,
      sent_count: 0,
      error_count: 0,
      total_monitors: 0,
      is_scheduled: false,
      is_billable: false,
      created_at: createdAt,
      type: 1,
      tags: [],
      segments: 1
    }
  }
  const message = pick(random, texts)
  const segments = message.length > 150 ? 2 : 1
  const sent = below(random, 10) !== 0
  const id = below(random, 4) === 0 ? { id: `order-${index}` } : {}
  return {
    message_id: messageId,
    ...id,
    short_code: "88000",
    country: "44",
    msisdn,
    direction: "MT",
    status: sent ? "SENT" : "READY",
    message,
    total_recipients: 1,
    sent_count: sent ? segments : 0,
    error_count: 0,
    total_monitors: 0,
    is_scheduled: false,
    is_billable: true,
    created_at: createdAt,
    created_by: "bench",
    type: 1,
    tags: [],
    segments
  }
}

/** The `count` messages in creation order, generated one at a time (nothing is held). */
export function* stored(count: number, seed = 20261122): Generator<Message.Stored> {
  const random = mulberry32(seed)
  for (let index = 0; index < count; index++) yield make(random, index, count)
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, the report's `created_on` for an account in the default zone. */
const createdOn = (epochMs: number): string => new Date(epochMs).toISOString().slice(0, 19).replace("T", " ")

/**
 * The wire row of a stored message, field for field as the report writes it in UTC (optional
 * fields absent, not empty), built here without smsbook's code so the baseline is the library alone.
 */
export const wire = (m: Message.Stored): Message.Message => ({
  message_id: m.message_id,
  ...(m.id === undefined ? {} : { id: m.id }),
  short_code: m.short_code,
  ...(m.country === undefined ? {} : { country: m.country }),
  ...(m.msisdn === undefined ? {} : { msisdn: m.msisdn }),
  direction: m.direction,
  status: m.status,
  message: m.message,
  total_recipients: m.total_recipients,
  sent_count: m.sent_count,
  error_count: m.error_count,
  total_monitors: m.total_monitors,
  is_scheduled: m.is_scheduled,
  is_billable: m.is_billable,
  created_on: createdOn(m.created_at),
  ...(m.created_by === undefined ? {} : { created_by: m.created_by }),
  type: m.type
})
