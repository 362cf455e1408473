/**
 * The carrier a URL names: `smpp://…` (an SMSC over SMPP 3.4) or `kannel://…` (Kannel's smsbox
 * over HTTP). What `smsbook dispatch` reads from `--carrier`, `SMSBOOK_CARRIER` or `smsbook.json`.
 */
import { InvalidField } from "@smsbook/core"
import { Result } from "effect"
import * as Submit from "./internal/submit.ts"
import * as KannelConfig from "./KannelConfig.ts"
import * as SmppConfig from "./SmppConfig.ts"

export type CarrierConfig = SmppConfig.SmppConfig | KannelConfig.KannelConfig

/** The URL with its secrets masked, for messages and logs. */
export const mask = (url: string): string => KannelConfig.mask(SmppConfig.mask(url))

/** Reads a carrier URL by its scheme; `tps` overrides the URL's. */
export const parse = (url: string, overrides: { readonly tps?: number } = {}): Result.Result<CarrierConfig, InvalidField> => {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.trim())?.[1]?.toLowerCase()
  if (scheme === "smpp") return SmppConfig.parse(url.trim(), overrides)
  if (scheme === "kannel") return KannelConfig.parse(url.trim(), overrides)
  return Result.fail(new InvalidField({
    field: "carrier",
    value: mask(url),
    reason: "must be smpp://system_id:password@host:port?… or kannel://user:password@host:port?callback=…"
  }))
}

/**
 * Why the carrier cannot send from `shortCode` (the account's), if it cannot: over SMPP the sender goes in each
 * submit_sm as the SMSC takes it (`+` and digits an international number of at most 15 digits, an alphanumeric one at
 * most 11 ASCII characters), so a dispatch refuses it before it binds rather than have every part refused. smsbox
 * writes its own PDUs from Kannel's settings: nothing is checked there.
 */
export const senderProblem = (config: CarrierConfig, shortCode: string): string | undefined =>
  KannelConfig.is(config) ? undefined : Submit.senderProblem(shortCode)
