/**
 * The carrier a URL names: `smpp://…` (an SMSC over SMPP 3.4) or `kannel://…` (Kannel's smsbox
 * over HTTP). What `smsbook dispatch` reads from `--carrier`, `SMSBOOK_CARRIER` or `smsbook.json`.
 */
import { InvalidField } from "@smsbook/core"
import { Result } from "effect"
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
