/**
 * The callbacks Kannel's smsbox makes to smsbook: delivery reports (`dlr-url`, `GET /kannel/dlr`)
 * become part states and `error_count`; inbound SMS (`get-url`, `GET /kannel/mo`) go to the receive use case.
 */
import { type Account, type ContactStore, InvalidField, type InvalidMsisdn, type MessageStore, Messaging, PartQueue, type SmsbookError, type StoreFailure } from "@smsbook/core"
import * as ApiKeyStore from "@smsbook/store/ApiKeyStore"
import * as PartStore from "@smsbook/store/PartStore"
import * as Store from "@smsbook/store/Store"
import { type Duration, Effect, Layer, Option, Result } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import * as ErrorBody from "./ErrorBody.ts"

/** The paths smsbox calls (the carrier's `KannelRequest.dlrPath` names the first). */
export const paths = { dlr: "/kannel/dlr", mo: "/kannel/mo" } as const

const encoder = new TextEncoder()
const decoder = new TextDecoder("utf-8")

/** Query parameters as octets, names as text: the first of each name wins, `+` is a space. */
export const queryOctets = (url: string): ReadonlyMap<string, Uint8Array> => {
  const out = new Map<string, Uint8Array>()
  const query = url.includes("?") ? url.slice(url.indexOf("?") + 1).split("#")[0] ?? "" : ""
  for (const pair of query.split("&")) {
    if (pair === "") continue
    const equals = pair.indexOf("=")
    const name = decoder.decode(percentDecode(equals < 0 ? pair : pair.slice(0, equals)))
    if (!out.has(name)) out.set(name, percentDecode(equals < 0 ? "" : pair.slice(equals + 1)))
  }
  return out
}

/** The octets of a percent-encoded value; a `%` not followed by two hex digits stands for itself. */
export const percentDecode = (value: string): Uint8Array => {
  const out: Array<number> = []
  for (let i = 0; i < value.length;) {
    const hex = value.slice(i + 1, i + 3)
    if (value[i] === "%" && /^[0-9a-fA-F]{2}$/.test(hex)) {
      out.push(Number.parseInt(hex, 16))
      i += 3
    } else if (value[i] === "+") {
      out.push(0x20)
      i += 1
    } else {
      // A whole code point: the two halves of an astral character are one character's UTF-8, not two replacements.
      const char = String.fromCodePoint(value.codePointAt(i) ?? 0xfffd)
      out.push(...encoder.encode(char))
      i += char.length
    }
  }
  return Uint8Array.from(out)
}

const utf8 = (octets: Uint8Array | undefined): string | undefined => octets === undefined ? undefined : decoder.decode(octets)

/** The charsets smsbox writes texts in (its `%C`), by the names TextDecoder knows them. */
const charsets: ReadonlyMap<string, string> = new Map([
  ["UTF-8", "utf-8"], ["UTF8", "utf-8"], ["UTF-16BE", "utf-16be"], ["UCS-2", "utf-16be"], ["UCS-2BE", "utf-16be"], ["UTF-16LE", "utf-16le"],
  ["ISO-8859-1", "latin1"], ["LATIN1", "latin1"], ["WINDOWS-1252", "windows-1252"], ["CP1252", "windows-1252"]
])

/**
 * The text of an inbound SMS from smsbox's octets: `charset` (`%C`) when given, else by `coding`
 * (`%c`: 0 GSM-7, which smsbox hands over as UTF-8; 1 8-bit, as Latin-1; 2 UCS-2, as UTF-16BE).
 * Octets that are not valid in that charset are refused, naming it.
 */
export const decodeText = (octets: Uint8Array, coding: string | undefined, charset: string | undefined): Result.Result<string, InvalidField> => {
  const named = charset === undefined || charset === "" ? undefined : charsets.get(charset.toUpperCase())
  if (charset !== undefined && charset !== "" && named === undefined) {
    return Result.fail(new InvalidField({ field: "charset", value: charset, reason: `is not one of ${[...charsets.keys()].join(", ")}` }))
  }
  const byCoding = coding === undefined || coding === "" || coding === "0" ? "utf-8" : coding === "1" ? "latin1" : coding === "2" ? "utf-16be" : undefined
  if (named === undefined && byCoding === undefined) {
    return Result.fail(new InvalidField({ field: "coding", value: coding ?? "", reason: "must be 0 (GSM-7), 1 (8-bit) or 2 (UCS-2)" }))
  }
  try {
    return Result.succeed(new TextDecoder(named ?? byCoding, { fatal: true }).decode(octets))
  } catch {
    return Result.fail(new InvalidField({ field: "text", value: Buffer.from(octets).toString("hex"), reason: `is not valid ${named ?? byCoding} text` }))
  }
}

/** What a delivery report says of its part: a state to store, or nothing to store (buffered, taken by the SMSC). */
export type Report =
  | { readonly _tag: "State"; readonly id: string; readonly msisdn: string; readonly state: PartQueue.State }
  | { readonly _tag: "Progress"; readonly id: string; readonly type: number }

/** The SMPP `stat:` words of a receipt text (Kannel's `%A`), as failed states. */
const failedStats: ReadonlyMap<string, PartQueue.State> = new Map([
  ["UNDELIV", "undeliverable"], ["UNDELIVERABLE", "undeliverable"], ["EXPIRED", "expired"], ["REJECTD", "rejected"],
  ["REJECTED", "rejected"], ["DELETED", "deleted"]
])

/**
 * The state of a Kannel report kind (`%d`): 1 delivered; 2 failed at the network, made precise by
 * the receipt's `stat:` in `%A` (expired, rejected, deleted; else undeliverable); 16 refused by the
 * SMSC (rejected). 4 (buffered) and 8 (the SMSC took it) settle nothing.
 */
export const stateOf = (type: number, answer: string): PartQueue.State | undefined => {
  if ((type & 1) !== 0) return "delivered"
  if ((type & 2) !== 0) {
    const stat = /(?:^|\s)stat:(\S+)/i.exec(answer)?.[1]?.toUpperCase()
    return (stat === undefined ? undefined : failedStats.get(stat)) ?? "undeliverable"
  }
  if ((type & 16) !== 0) return "rejected"
  return undefined
}

const required = (params: ReadonlyMap<string, Uint8Array>, name: string): Result.Result<string, InvalidField> => {
  const value = utf8(params.get(name))
  if (value === undefined || value === "") return Result.fail(new InvalidField({ field: name, value: "", reason: "is missing" }))
  // A key of a lookup: no stored key holds a NUL, and PostgreSQL would refuse to look for one.
  return value.includes("\u0000")
    ? Result.fail(new InvalidField({ field: name, value: value.replaceAll("\u0000", "\\u0000"), reason: "holds U+0000 (NUL)" }))
    : Result.succeed(value)
}

/** Reads a `dlr-url` call: `id` (the part's id), `to` (its number), `type` (`%d`), `answer` (`%A`). */
export const parseReport = (params: ReadonlyMap<string, Uint8Array>): Result.Result<Report, InvalidField> =>
  Result.gen(function*() {
    const id = yield* required(params, "id")
    const msisdn = (yield* required(params, "to")).replace(/^\+/, "")
    const rawType = yield* required(params, "type")
    const type = Number(rawType)
    if (!/^\d{1,3}$/.test(rawType) || type === 0) {
      return yield* Result.fail(new InvalidField({ field: "type", value: rawType, reason: "must be a Kannel report kind (1, 2, 4, 8 or 16)" }))
    }
    const state = stateOf(type, utf8(params.get("answer")) ?? "")
    return state === undefined ? { _tag: "Progress", id, type } : { _tag: "State", id, msisdn, state }
  })

/** Reads a `get-url` call: `from` (`%p`), `text` (`%a` or `%b`, octets), `coding` (`%c`), `charset` (`%C`). */
export const parseInbound = (params: ReadonlyMap<string, Uint8Array>): Result.Result<{ readonly from: string; readonly text: string }, InvalidField> =>
  Result.gen(function*() {
    const from = yield* required(params, "from")
    const text = yield* decodeText(params.get("text") ?? new Uint8Array(0), utf8(params.get("coding")), utf8(params.get("charset")))
    return { from, text }
  })

export interface Options {
  /** The store URL the server serves: its outbox receives the reports (a `memory:` book has none). */
  readonly store: string
  /** Let every call through without a key (`--no-auth`, loopback only). */
  readonly open: boolean
  /** The country of senders smsbox hands over written nationally (`Messaging.ReceiveOptions`). */
  readonly defaultCountry?: string | undefined
  /** How long a report's write waits for another writer's lock (the server's `lockWait`; default the store's). */
  readonly lockWait?: Duration.Input | undefined
}

/**
 * How long a report that names no part yet waits for it, in ms, before it is answered 503 (smsbox asks again): smsbox
 * may report before the dispatcher has stored smsbox's answer.
 */
const unknownWait = 5000

/** Answers are a line of text for smsbox's log; failures are the server's error bodies. */
const answer = (status: number, body = "") => HttpServerResponse.text(body, { status })

const failure = (body: ErrorBody.BodyOf<ErrorBody.Status>) => HttpServerResponse.jsonUnsafe(body, { status: body.error.status })

/** The error body of `error`; a 5xx's cause goes to the request's log line, which its message points to (`mapTo`'s rule). */
const refusal = (error: SmsbookError): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const body = ErrorBody.fromError(error)
  return body.error.status < 500
    ? Effect.succeed(failure(body))
    : Effect.as(ErrorBody.noteFailure(error), failure(body))
}

/** A sender that is no number (400), saying what to give when it may be written nationally and no country was given. */
const refusedSender = (error: InvalidMsisdn, defaultCountry: string | undefined) => {
  const body = ErrorBody.fromError(error)
  return error.problem === "unknown-country" && defaultCountry === undefined
    ? failure({ error: { ...body.error, message: `${body.error.message}: a sender written nationally needs serve --default-country` } })
    : failure(body)
}

type Services = ApiKeyStore.ApiKeyStore | Account.Account | MessageStore.MessageStore | ContactStore.ContactStore

/**
 * The two routes. Kannel cannot send an `Authorization` header, so each call carries an API key
 * as `key=` in its URL (`smsbook keys create`), checked like a bearer key; `open` lets all through.
 */
const routes = (options: Options) =>
  HttpRouter.use((router) =>
    Effect.gen(function*() {
      const context = yield* Effect.context<Services>()
      const keys = yield* ApiKeyStore.ApiKeyStore
      const queue = yield* Effect.serviceOption(PartQueue.PartQueue)

      const authorized = (params: ReadonlyMap<string, Uint8Array>) =>
        options.open ? Effect.succeed(true) : Effect.map(keys.verify(utf8(params.get("key")) ?? ""), Option.isSome)

      const guarded = (handle: (params: ReadonlyMap<string, Uint8Array>) => Effect.Effect<HttpServerResponse.HttpServerResponse, SmsbookError>) =>
        (request: HttpServerRequest.HttpServerRequest) => {
          const params = queryOctets(request.url)
          return authorized(params).pipe(
            Effect.flatMap((ok) =>
              ok ? handle(params) : Effect.succeed(failure(ErrorBody.http("Unauthorized", "a live API key is required as key= in the callback URL")))),
            Effect.catch((error) => refusal(error))
          )
        }

      const report = (params: ReadonlyMap<string, Uint8Array>) => {
        const parsed = parseReport(params)
        if (Result.isFailure(parsed)) return refusal(parsed.failure)
        const read = parsed.success
        if (read._tag === "Progress") return Effect.succeed(answer(200, `report kind ${read.type} noted`))
        if (Option.isNone(queue)) return Effect.succeed(failure(ErrorBody.http("NotReady", "a memory: book has no outbox to report on")))
        const apply = queue.value.receipt({ smscIds: [read.id], state: read.state, msisdn: read.msisdn })
        // smsbox may report a part before the dispatcher stored smsbox's answer to it: asked again for a while.
        const settled = (started: number): Effect.Effect<PartQueue.ReceiptOutcome, StoreFailure> =>
          Effect.flatMap(apply, (outcome) =>
            outcome._tag !== "Unknown" || Date.now() - started >= unknownWait
              ? Effect.succeed(outcome)
              : Effect.andThen(Effect.sleep(100), settled(started)))
        return Effect.map(Effect.suspend(() => settled(Date.now())), (outcome) =>
          outcome._tag === "Unknown"
            // Not yet: a dispatcher killed mid-request leaves its part unknown until its next start
            // finds it in doubt. smsbox's `http-request-retry` asks again.
            ? answer(503, `no part ${read.id} to ${read.msisdn} is waiting for a report yet: try again`)
            : answer(200, outcome._tag === "Updated" ? `part ${outcome.part} of ${outcome.message_id}: ${outcome.state}` : `duplicate: ${outcome.state}`))
      }

      // The answer's body would be sent back to the handset by an sms-service without `max-messages = 0`: it is empty.
      const inbound = (params: ReadonlyMap<string, Uint8Array>) => {
        const parsed = parseInbound(params)
        if (Result.isFailure(parsed)) return refusal(parsed.failure)
        return Messaging.receiveMessage(parsed.success.from, parsed.success.text, { defaultCountry: options.defaultCountry }).pipe(
          Effect.as(answer(200)),
          Effect.catchTag("InvalidMsisdn", (error) => Effect.succeed(refusedSender(error, options.defaultCountry))),
          Effect.provide(context)
        )
      }

      yield* router.add("GET", paths.dlr, guarded(report))
      yield* router.add("GET", paths.mo, guarded(inbound))
    })
  )

/**
 * The callbacks as a layer of the server's router, over the store's ports and API keys; the reports
 * go to the outbox of the store at `options.store` (its own connection, as a dispatcher's).
 */
export const layer = (options: Options) => {
  const location = Store.locate(options.store)
  return "kind" in location && location.kind !== "memory"
    ? routes(options).pipe(Layer.provide(PartStore.layer(options.store, options.lockWait === undefined ? {} : { lockWait: options.lockWait })))
    : routes(options)
}
