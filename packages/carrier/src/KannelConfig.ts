/**
 * The Kannel HTTP carrier's settings, read from `kannel://username:password@host:port?…`: where
 * smsbox's `sendsms` listens, and where smsbox calls smsbook back with delivery reports (`dlr-url`).
 */
import type { InvalidField } from "@smsbook/core"
import { Result } from "effect"
import * as CarrierUrl from "./internal/carrierUrl.ts"

export interface KannelConfig {
  readonly protocol: "kannel"
  /** smsbox's sendsms endpoint (`http://host:port/cgi-bin/sendsms`). */
  readonly sendsmsUrl: string
  /** A `sendsms-user` of smsbox. */
  readonly username: string
  readonly password: string
  /** Kannel's `smsc-id` to route through (smsbox's `smsc` parameter); absent: Kannel's routing. */
  readonly smsc?: string
  /** smsbook's HTTP server as smsbox reaches it: delivery reports go to `<callback>/kannel/dlr`. */
  readonly callback?: string
  /** The API key smsbox sends back in the `dlr-url` (`key=`): the callbacks cannot send a bearer header. */
  readonly callbackKey?: string
  /** Ask for delivery reports (`dlr-mask` 1+2+16 and a `dlr-url`); needs `callback`. */
  readonly receipts: boolean
  /** Most sendsms requests awaiting their answer at once. */
  readonly window: number
  /** Most sendsms requests per second; 0 for no limit. */
  readonly tps: number
  /** A sendsms request unanswered this long is given up: its part stays in doubt (smsbox may have it). */
  readonly responseTimeoutMs: number
  /**
   * How long a probe waits for smsbox's answer before it counts as failed; and, with `once`, how long a dispatcher run
   * waits for smsbox's first answer once a request has failed before the run fails (`CarrierFailure`): smsbox not there
   * (connections refused, no route) would otherwise be retried forever.
   */
  readonly connectTimeoutMs: number
  /** Backoff while smsbox is unreachable or full (HTTP 503): first wait, doubled up to the maximum. */
  readonly retryMs: { readonly initial: number; readonly max: number }
}

export const defaults = {
  protocol: "kannel",
  receipts: true,
  window: 10,
  tps: 0,
  responseTimeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  retryMs: { initial: 250, max: 30_000 }
} as const

/** Whether a carrier configuration is Kannel's (the SMPP one carries no `protocol`). */
export const is = (config: object): config is KannelConfig => "protocol" in config && config.protocol === "kannel"

/** The URL with its password and callback key masked, for messages and logs. */
export const mask = (url: string): string =>
  url.replace(/^(kannel:\/\/[^:@/]*:)[^@/]*@/i, "$1***@").replace(/([?&]key=)[^&]*/gi, "$1***")

const known = new Set(["callback", "key", "smsc", "path", "receipts", "window", "tps", "response_timeout_ms", "connect_timeout_ms"])

/** A key Kannel copies into its callbacks verbatim: characters that need no escaping in a URL. */
const urlSafe = /^[A-Za-z0-9_.~-]+$/

/**
 * Reads `kannel://username:password@host:port?…` (a smsbox `sendsms-user`; port 13013 when absent).
 * Parameters: `callback` (smsbook's server as smsbox reaches it, `http://127.0.0.1:8080`), `key`
 * (an API key for the callbacks), `smsc` (Kannel's smsc-id), `path` (default `/cgi-bin/sendsms`),
 * `receipts` (`true`/`false`), `window`, `tps` (0 = no limit), `response_timeout_ms`, `connect_timeout_ms` (a probe's
 * time to answer, and how long `dispatch --once` waits for smsbox's first answer once a request failed).
 */
export const parse = (url: string, overrides: { readonly tps?: number } = {}): Result.Result<KannelConfig, InvalidField> =>
  Result.gen(function*() {
    const read = CarrierUrl.reader(url, mask)
    const parsed = yield* read.parse("kannel:", "kannel://user:password@host:13013?callback=http://127.0.0.1:8080")
    const username = decodeURIComponent(parsed.username)
    if (username === "") return yield* Result.fail(read.invalid("names no sendsms-user (the user part)"))
    const params = yield* read.parameters(parsed, known)
    const receipts = yield* read.flag(params, "receipts")
    const callback = params.get("callback") ?? undefined
    if (callback !== undefined && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/i.test(callback)) {
      return yield* Result.fail(read.invalid(`parameter callback=${callback} must be an http(s) URL without a query`))
    }
    if (receipts && callback === undefined) {
      return yield* Result.fail(read.invalid("needs callback=<smsbook's server as smsbox reaches it> for delivery reports (or receipts=false)"))
    }
    const key = params.get("key") ?? undefined
    if (key !== undefined && !urlSafe.test(key)) return yield* Result.fail(read.invalid("parameter key must be an API key (letters, digits, - _ . ~)"))
    const path = params.get("path") ?? "/cgi-bin/sendsms"
    if (!path.startsWith("/")) return yield* Result.fail(read.invalid(`parameter path=${path} must start with /`))
    const smsc = params.get("smsc") ?? undefined
    return {
      ...defaults,
      sendsmsUrl: `http://${parsed.hostname}:${parsed.port === "" ? "13013" : parsed.port}${path}`,
      username,
      password: decodeURIComponent(parsed.password),
      ...(smsc === undefined ? {} : { smsc }),
      ...(callback === undefined ? {} : { callback: callback.replace(/\/+$/, "") }),
      ...(key === undefined ? {} : { callbackKey: key }),
      receipts,
      window: yield* read.integer(params, "window", defaults.window, 1),
      tps: overrides.tps ?? (yield* read.integer(params, "tps", defaults.tps, 0)),
      responseTimeoutMs: yield* read.integer(params, "response_timeout_ms", defaults.responseTimeoutMs, 10),
      connectTimeoutMs: yield* read.integer(params, "connect_timeout_ms", defaults.connectTimeoutMs, 10)
    }
  })
