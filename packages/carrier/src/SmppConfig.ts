/**
 * The SMPP carrier's settings, read from `smpp://system_id:password@host:port?tps=…&window=…`
 * (SMSBOOK_CARRIER or smsbook.json): a bad value is an `InvalidField` naming the parameter.
 */
import type { InvalidField } from "@smsbook/core"
import { Result } from "effect"
import * as CarrierUrl from "./internal/carrierUrl.ts"
import * as Link from "./internal/link.ts"
import type * as ShortMessage from "./ShortMessage.ts"

export interface SmppConfig extends Link.Options {
  /** GSM-7 octets on the link: one septet per octet (SMPP's norm) unless the SMSC wants them packed. */
  readonly packing: ShortMessage.Packing
  /** A concatenated inbound SMS whose parts stop coming is recorded with what arrived after this long. */
  readonly reassemblyTimeoutMs: number
  /** Ask the SMSC for delivery receipts (registered_delivery 1). */
  readonly receipts: boolean
}

export const defaults = {
  ...Link.defaults,
  packing: "unpacked",
  reassemblyTimeoutMs: 60_000,
  receipts: true
} as const

/** The URL with its password masked, for messages and logs. */
export const mask = (url: string): string => url.replace(/^(smpp:\/\/[^:@/]*:)[^@/]*@/i, "$1***@")

const known = new Set([
  "tps",
  "window",
  "packing",
  "system_type",
  "enquire_link_ms",
  "response_timeout_ms",
  "connect_timeout_ms",
  "reassembly_timeout_ms",
  "receipts",
  "max_bind_attempts"
])

/**
 * Reads `smpp://system_id:password@host:port?…`. Parameters: `tps` (0 = no limit), `window`,
 * `packing` (`unpacked`/`packed`), `system_type`, `enquire_link_ms`, `response_timeout_ms`,
 * `connect_timeout_ms` (connect and bind), `reassembly_timeout_ms`, `receipts` (`true`/`false`),
 * `max_bind_attempts` (0 = forever).
 */
export const parse = (url: string, overrides: { readonly tps?: number } = {}): Result.Result<SmppConfig, InvalidField> =>
  Result.gen(function*() {
    const read = CarrierUrl.reader(url, mask)
    const parsed = yield* read.parse("smpp:", "smpp://system_id:password@host:2775")
    const systemId = decodeURIComponent(parsed.username)
    if (systemId === "" || systemId.length > 15) return yield* Result.fail(read.invalid("system_id (the user part) must be 1 to 15 characters"))
    const password = decodeURIComponent(parsed.password)
    if (password.length > 8) return yield* Result.fail(read.invalid("password must be at most 8 characters (SMPP 3.4)"))
    const params = yield* read.parameters(parsed, known)
    const packing = params.get("packing") ?? defaults.packing
    if (packing !== "unpacked" && packing !== "packed") return yield* Result.fail(read.invalid(`parameter packing=${packing} must be unpacked or packed`))
    const receipts = yield* read.flag(params, "receipts")
    const systemType = params.get("system_type") ?? defaults.systemType
    if (systemType.length > 12) return yield* Result.fail(read.invalid("system_type must be at most 12 characters"))
    const tps = overrides.tps ?? (yield* read.integer(params, "tps", defaults.tps, 0))
    return {
      ...defaults,
      host: parsed.hostname.replace(/^\[|\]$/g, ""),
      port: parsed.port === "" ? 2775 : Number(parsed.port),
      systemId,
      password,
      systemType,
      tps,
      window: yield* read.integer(params, "window", defaults.window, 1),
      enquireLinkMs: yield* read.integer(params, "enquire_link_ms", defaults.enquireLinkMs, 10),
      responseTimeoutMs: yield* read.integer(params, "response_timeout_ms", defaults.responseTimeoutMs, 10),
      connectTimeoutMs: yield* read.integer(params, "connect_timeout_ms", defaults.connectTimeoutMs, 10),
      reassemblyTimeoutMs: yield* read.integer(params, "reassembly_timeout_ms", defaults.reassemblyTimeoutMs, 10),
      maxBindAttempts: yield* read.integer(params, "max_bind_attempts", defaults.maxBindAttempts, 0),
      packing,
      receipts
    }
  })
