/**
 * The SMPP carrier's settings, read from `smpp://system_id:password@host:port?tps=…&window=…`
 * (SMSBOOK_CARRIER or smsbook.json): a bad value is an `InvalidField` naming the parameter.
 */
import { InvalidField } from "@smsbook/core"
import { Result } from "effect"
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

const invalid = (url: string, reason: string) => new InvalidField({ field: "carrier", value: mask(url), reason })

const integer = (url: string, params: URLSearchParams, name: string, fallback: number, min: number): Result.Result<number, InvalidField> => {
  const raw = params.get(name)
  if (raw === null) return Result.succeed(fallback)
  const value = Number(raw)
  return /^\d+$/.test(raw) && Number.isSafeInteger(value) && value >= min
    ? Result.succeed(value)
    : Result.fail(invalid(url, `parameter ${name}=${raw} must be a whole number ≥ ${min}`))
}

const known = new Set(["tps", "window", "packing", "system_type", "enquire_link_ms", "response_timeout_ms", "reassembly_timeout_ms", "receipts", "max_bind_attempts"])

/**
 * Reads `smpp://system_id:password@host:port?…`. Parameters: `tps` (0 = no limit), `window`,
 * `packing` (`unpacked`/`packed`), `system_type`, `enquire_link_ms`, `response_timeout_ms`,
 * `reassembly_timeout_ms`, `receipts` (`true`/`false`), `max_bind_attempts` (0 = forever).
 */
export const parse = (url: string, overrides: { readonly tps?: number } = {}): Result.Result<SmppConfig, InvalidField> =>
  Result.gen(function*() {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return yield* Result.fail(invalid(url, "is not a URL like smpp://system_id:password@host:2775"))
    }
    if (parsed.protocol !== "smpp:") return yield* Result.fail(invalid(url, `scheme ${parsed.protocol} is not smpp:`))
    if (parsed.hostname === "") return yield* Result.fail(invalid(url, "names no host"))
    const systemId = decodeURIComponent(parsed.username)
    if (systemId === "" || systemId.length > 15) return yield* Result.fail(invalid(url, "system_id (the user part) must be 1 to 15 characters"))
    const password = decodeURIComponent(parsed.password)
    if (password.length > 8) return yield* Result.fail(invalid(url, "password must be at most 8 characters (SMPP 3.4)"))
    const params = parsed.searchParams
    for (const name of params.keys()) if (!known.has(name)) return yield* Result.fail(invalid(url, `unknown parameter ${name}`))
    const packing = params.get("packing") ?? defaults.packing
    if (packing !== "unpacked" && packing !== "packed") return yield* Result.fail(invalid(url, `parameter packing=${packing} must be unpacked or packed`))
    const receipts = params.get("receipts") ?? "true"
    if (receipts !== "true" && receipts !== "false") return yield* Result.fail(invalid(url, `parameter receipts=${receipts} must be true or false`))
    const systemType = params.get("system_type") ?? defaults.systemType
    if (systemType.length > 12) return yield* Result.fail(invalid(url, "system_type must be at most 12 characters"))
    const tps = overrides.tps ?? (yield* integer(url, params, "tps", defaults.tps, 0))
    return {
      ...defaults,
      host: parsed.hostname.replace(/^\[|\]$/g, ""),
      port: parsed.port === "" ? 2775 : Number(parsed.port),
      systemId,
      password,
      systemType,
      tps,
      window: yield* integer(url, params, "window", defaults.window, 1),
      enquireLinkMs: yield* integer(url, params, "enquire_link_ms", defaults.enquireLinkMs, 10),
      responseTimeoutMs: yield* integer(url, params, "response_timeout_ms", defaults.responseTimeoutMs, 10),
      reassemblyTimeoutMs: yield* integer(url, params, "reassembly_timeout_ms", defaults.reassemblyTimeoutMs, 10),
      maxBindAttempts: yield* integer(url, params, "max_bind_attempts", defaults.maxBindAttempts, 0),
      packing,
      receipts: receipts === "true"
    }
  })
