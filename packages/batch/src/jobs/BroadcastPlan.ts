/**
 * A broadcast plan: what a group send would do — counts, encoding, parts, the characters forcing
 * UCS-2, `sent_count`, and every recipient — written for review and sealed by content hashes, so
 * `broadcast --plan FILE` sends exactly what was reviewed or refuses.
 */
import { Account, Contact, ExternalId, InvalidParameter, MessageStore, Messaging, MissingTags, NoRecipients, Resumption, Sms } from "@smsbook/core"
import { Effect, Option, Schema, Stream } from "effect"
import { createHash } from "node:crypto"
import { PlanMismatch } from "../CliErrors.ts"
import * as BroadcastId from "../internal/broadcastId.ts"
import * as Files from "../internal/files.ts"
import * as OutputPath from "../internal/outputPath.ts"
import * as WholeInput from "../internal/wholeInput.ts"

/** Everything of a plan but its audience list and hashes. */
export const Header = Schema.Struct({
  smsbook_plan: Schema.Literal(1),
  short_name: Schema.String,
  tags: Schema.Array(Schema.String),
  message: Schema.String,
  id: Schema.optionalKey(Schema.String),
  prefixed: Schema.String,
  encoding: Schema.Literals(["GSM-7", "UCS-2"]),
  segments: Schema.Number,
  parts: Schema.Array(Schema.String),
  ucs2_characters: Schema.Array(Schema.Struct({ char: Schema.String, index: Schema.Number, suggestion: Schema.optionalKey(Schema.String) })),
  recipients: Schema.Number,
  monitors: Schema.Number,
  sent_count: Schema.Number,
  /**
   * Present when the real run would resume an interrupted broadcast: its message, the members it had been handed to,
   * and how many of the audience it would hand it to now.
   */
  resume: Schema.optionalKey(Schema.Struct({ message_id: Schema.String, handed_over_before: Schema.Number, remaining: Schema.Number }))
})
export type Header = typeof Header.Type

export const PlanFile = Schema.Struct({
  ...Header.fields,
  audience: Schema.Array(Schema.Tuple([Schema.String, Schema.Literals(["recipient", "monitor"])])),
  audience_sha256: Schema.String,
  plan_sha256: Schema.String
})
export type PlanFile = typeof PlanFile.Type

export interface Summary extends Header {
  readonly audience_sha256: string
  readonly plan_sha256: string
}

/** The hash of an audience: its members in order, one `msisdn role` line each. */
const audienceHasher = () => {
  const hash = createHash("sha256")
  return {
    add: (msisdn: string, role: Messaging.Role) => hash.update(`${msisdn} ${role}\n`),
    digest: () => hash.digest("hex")
  }
}

/** The seal of a plan: its header with the audience hash, as canonical JSON. */
export const sealOf = (header: Header, audienceSha256: string): string =>
  createHash("sha256").update(JSON.stringify([header, audienceSha256])).digest("hex")

export interface Request {
  readonly tags: ReadonlyArray<string>
  readonly message: string
  readonly id?: string | undefined
  /** A plan that reaches nobody is refused (`NoRecipients`), as the send would be, unless this is set. */
  readonly allowEmpty?: boolean | undefined
}

/**
 * Resolves the audience of `request` now and summarises it; with `onBatch`, every batch of members
 * is handed on as it is resolved (to write a plan file without holding the audience in memory).
 */
export const resolve = Effect.fnUntraced(function*<E = never>(
  request: Request,
  onBatch: (members: ReadonlyArray<readonly [string, Messaging.Role]>) => Effect.Effect<void, E> = () => Effect.void
) {
  const account = yield* Account.Account
  // As the send checks them: a dry run refuses what the real run would.
  yield* Effect.fromResult(Contact.checkTags(request.tags))
  const tags = Contact.normalizeTags(request.tags)
  if (tags.length === 0) return yield* new MissingTags()
  yield* Effect.fromResult(Sms.checkBudget(account.short_name, request.message))
  if (request.id !== undefined) yield* Effect.fromResult(ExternalId.parse(request.id))
  // What the real run finds under its id: an interrupted run of it to resume, or a finished one (a duplicate).
  const id = BroadcastId.idOf(request, account.short_name)
  const unfinished = yield* Resumption.unfinished(id, request.message, tags)
  const analysis = Sms.analyzePrefixed(account.short_name, request.message)
  const hasher = audienceHasher()
  let recipients = 0
  let monitors = 0
  yield* Messaging.audience(tags).pipe(
    Stream.grouped(5000),
    Stream.runForEach((batch) => {
      for (const member of batch) {
        hasher.add(member.msisdn, member.role)
        if (member.role === "recipient") recipients++
        else monitors++
      }
      return onBatch(batch.map((member) => [member.msisdn, member.role] as const))
    })
  )
  let resume: Header["resume"]
  if (Option.isSome(unfinished)) {
    // The deliveries ledger holds whom it reached; the audience less those is what the resumed run hands over.
    const before = yield* (yield* MessageStore.MessageStore).countDeliveries(unfinished.value.message_id)
    resume = { message_id: unfinished.value.message_id, handed_over_before: before, remaining: Math.max(0, recipients + monitors - before) }
  } else {
    if (recipients === 0 && request.allowEmpty !== true) return yield* new NoRecipients({ tags })
    yield* Resumption.checkNotDuplicate(id)
  }
  const header: Header = {
    smsbook_plan: 1,
    short_name: account.short_name,
    tags,
    message: request.message,
    ...(request.id === undefined ? {} : { id: request.id }),
    prefixed: Sms.prefix(account.short_name, request.message),
    encoding: analysis.encoding,
    segments: analysis.segments,
    parts: analysis.parts,
    ucs2_characters: Sms.ucs2Characters(Sms.prefix(account.short_name, request.message)),
    recipients,
    monitors,
    sent_count: Sms.sentCount(analysis.segments, recipients, monitors),
    ...(resume === undefined ? {} : { resume })
  }
  const audience_sha256 = hasher.digest()
  return { ...header, audience_sha256, plan_sha256: sealOf(header, audience_sha256) } satisfies Summary
})

/** Resolves the plan and writes it to `path` (JSON, the audience streamed in). */
export const write = Effect.fnUntraced(function*(request: Request, path: string) {
  const sink = yield* OutputPath.openFlag(path, "--plan")
  let first = true
  yield* sink.write("{\n  \"audience\": [")
  const summary = yield* resolve(request, (members) =>
    sink.write(members.map((member) => {
      const line = `${first ? "" : ","}\n    ${JSON.stringify(member)}`
      first = false
      return line
    }).join("")))
  const { audience_sha256: _, plan_sha256: __, ...header } = summary
  const rest = JSON.stringify({ ...header, audience_sha256: summary.audience_sha256, plan_sha256: summary.plan_sha256 }, null, 2)
  yield* sink.write(`\n  ],\n${rest.slice(2)}\n`)
  yield* sink.close
  return summary
}, Effect.scoped)

const decodePlan = Schema.decodeUnknownEffect(PlanFile)

const utf8 = new TextDecoder("utf-8", { fatal: true })

/**
 * Reads a plan and checks it was not edited: its audience must hash to `audience_sha256` and its
 * content to `plan_sha256`; then the audience resolved now must be the audience reviewed.
 */
export const verify = Effect.fnUntraced(function*(path: string, options: { readonly allowEmpty: boolean }) {
  const text = yield* Effect.try({
    try: () => utf8.decode(WholeInput.read(path)),
    catch: (cause) =>
      new InvalidParameter({
        parameter: "--plan",
        value: path,
        reason: `cannot be read: ${cause instanceof TypeError ? "not valid UTF-8" : Files.reasonOf(cause, "no such file")}`
      })
  })
  // A file that is not a plan at all is bad input (exit 2); a plan that no longer matches is a PlanMismatch.
  const parsed = yield* Effect.try({
    try: (): unknown => JSON.parse(text),
    catch: () => new InvalidParameter({ parameter: "--plan", value: path, reason: "is not JSON: not a plan written by broadcast --dry-run --plan" })
  })
  const plan = yield* decodePlan(parsed).pipe(
    Effect.mapError((error) => new InvalidParameter({ parameter: "--plan", value: path, reason: `is not a plan: ${error.message}` }))
  )
  const { audience, audience_sha256, plan_sha256, ...header } = plan
  const hasher = audienceHasher()
  for (const [msisdn, role] of audience) hasher.add(msisdn, role)
  if (hasher.digest() !== audience_sha256) {
    return yield* new PlanMismatch({ reason: "its recipient list was edited (audience_sha256 does not match)" })
  }
  if (sealOf(header, audience_sha256) !== plan_sha256) {
    return yield* new PlanMismatch({ reason: "it was edited (plan_sha256 does not match)" })
  }
  const account = yield* Account.Account
  if (account.short_name !== header.short_name) {
    return yield* new PlanMismatch({ reason: `it was made for short name ${header.short_name}, not ${account.short_name}` })
  }
  const now = yield* resolve({ ...header, allowEmpty: options.allowEmpty })
  if (now.audience_sha256 !== audience_sha256) {
    return yield* new PlanMismatch({
      reason: `the audience changed since it was made (${header.recipients} recipients and ${header.monitors} monitors then, ` +
        `${now.recipients} and ${now.monitors} now); make a new plan`
    })
  }
  return now
})
