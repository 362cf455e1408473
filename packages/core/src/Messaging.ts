/**
 * The message use cases: list, send to one number, send to groups by tag, the processing of a
 * group message (PENDING → PROCESSING → READY → SENT), the hand-over of an individual one, inbound SMS.
 * Over 400 lines: the message use cases share their checks (text, id, budget, zone) and stay one module.
 */
import { Clock, Context, Effect, Option, Result, Stream } from "effect"
import { Account } from "./Account.ts"
import { Carrier, type Part } from "./Carrier.ts"
import * as Contact from "./Contact.ts"
import * as ContactBook from "./ContactBook.ts"
import { ContactStore } from "./ContactStore.ts"
import * as Country from "./Country.ts"
import * as CreatedOn from "./CreatedOn.ts"
import { IllegalTransition, MessageNotFound, MissingTags, NoRecipients, RecipientOptedOut } from "./Errors.ts"
import * as ExternalId from "./ExternalId.ts"
import { isBlankCharacter } from "./internal/blank.ts"
import * as ids from "./internal/ids.ts"
import { useCaseSpan } from "./internal/useCaseSpan.ts"
import * as Message from "./Message.ts"
import { MessageStore } from "./MessageStore.ts"
import * as Msisdn from "./Msisdn.ts"
import * as Query from "./Query.ts"
import * as Resumption from "./Resumption.ts"
import * as Sms from "./Sms.ts"

/** The wire shape of a stored message, `created_on` in the account's time zone. */
export const toWire = (stored: Message.Stored, timeZone: CreatedOn.Zone): Message.Message => ({
  message_id: stored.message_id,
  ...(stored.id === undefined ? {} : { id: stored.id }),
  short_code: stored.short_code,
  ...(stored.country === undefined ? {} : { country: stored.country }),
  ...(stored.msisdn === undefined ? {} : { msisdn: stored.msisdn }),
  direction: stored.direction,
  status: stored.status,
  message: stored.message,
  total_recipients: stored.total_recipients,
  sent_count: stored.sent_count,
  error_count: stored.error_count,
  total_monitors: stored.total_monitors,
  is_scheduled: stored.is_scheduled,
  is_billable: stored.is_billable,
  created_on: CreatedOn.formatMillis(stored.created_at, timeZone),
  ...(stored.created_by === undefined ? {} : { created_by: stored.created_by }),
  type: stored.type
})

/** The account's time zone, resolved once per use case (a bad one fails before anything is written). */
const accountZone = Effect.flatMap(Effect.service(Account), (account) => Effect.fromResult(CreatedOn.zone(account.time_zone)))

/** `GET /messages`. */
export const listMessages = Effect.fnUntraced(function*(params: Query.Params) {
  const page = yield* Effect.fromResult(Query.messages(params))
  const zone = yield* accountZone
  const store = yield* MessageStore
  return (yield* store.list(page)).map((stored) => toWire(stored, zone))
}, useCaseSpan("Messaging.listMessages"))

/** The checks every outgoing send makes (a text that says something and fits the budget, the id 40 characters) and the message they start. */
const outgoing = Effect.fnUntraced(function*(text: string, rawId: string | undefined) {
  const account = yield* Account
  const zone = yield* accountZone
  yield* Effect.fromResult(Message.checkText(text))
  yield* Effect.fromResult(Sms.checkBudget(account.short_name, text))
  const id = rawId === undefined ? undefined : yield* Effect.fromResult(ExternalId.parse(rawId))
  const createdAt = yield* Clock.currentTimeMillis
  const antiSpam = id === undefined ? undefined : { id, since: createdAt - account.spam_period_seconds * 1000 }
  // What every outgoing message starts with; the send adds its recipients, status and type.
  const base: Omit<Message.Stored, "status" | "total_recipients" | "is_billable" | "type" | "tags"> = {
    message_id: yield* ids.messageId(createdAt),
    ...(id === undefined ? {} : { id }),
    short_code: account.short_code,
    direction: "MT",
    message: text,
    sent_count: 0,
    error_count: 0,
    total_monitors: 0,
    is_scheduled: false,
    created_at: createdAt,
    created_by: account.user,
    segments: Sms.analyzePrefixed(account.short_name, text).segments
  }
  return { account, antiSpam, base, zone }
})

/**
 * `POST /messages/send_to_contact`: records an individual message, READY, to one number. An
 * opted-out number is refused, its contact deleted or not; the same `id` within the spam period is refused and
 * nothing is created.
 */
export const sendToContact = Effect.fnUntraced(function*(body: unknown) {
  const request = yield* Effect.fromResult(Message.decodeSendToContactBody(body))
  const msisdn = yield* Effect.fromResult(Msisdn.parse(request.msisdn))
  const { antiSpam, base, zone } = yield* outgoing(request.message, request.id)
  const contacts = yield* ContactStore
  const contact = yield* contacts.get(msisdn)
  // An opt-out binds the number, not the record: without a contact (deleted since), the suppression list decides. A
  // stored contact that is not CANCELLED is never on it (an opt-out makes it CANCELLED, a resubscribe lifts both).
  const optedOut = Option.isSome(contact)
    ? contact.value.status === "CANCELLED"
    : (yield* contacts.suppressed([msisdn])).has(msisdn)
  if (optedOut) return yield* new RecipientOptedOut({ msisdn })
  const stored: Message.Stored = {
    ...base,
    country: Msisdn.split(msisdn).country_code,
    msisdn,
    status: Message.initialStatus(Message.INDIVIDUAL),
    total_recipients: 1,
    is_billable: true,
    type: Message.INDIVIDUAL,
    tags: []
  }
  const store = yield* MessageStore
  yield* store.insert(stored, antiSpam)
  return toWire(stored, zone)
}, useCaseSpan("Messaging.sendToContact"))

/**
 * An individual send carried through to SENT in one transaction: `sendToContact` then
 * `deliverMessage`, so a failed hand-over leaves no READY message behind and its `id` unused.
 */
export const sendNow = Effect.fnUntraced(function*(body: unknown) {
  const store = yield* MessageStore
  return yield* store.transaction(
    Effect.flatMap(sendToContact(body), (accepted) => deliverMessage(accepted.message_id ?? ""))
  )
}, useCaseSpan("Messaging.sendNow"))

/** What a group send answers (interface 4.3), and the id the platform processes it under. */
export interface Accepted {
  readonly response: Message.Message
  readonly message_id: string
}

/**
 * `POST /messages/send`: records a group message, PENDING, for the contacts of the tags. Without
 * tags it is refused (`MissingTags`): a send never silently goes to everybody.
 */
export const sendToGroups = Effect.fnUntraced(function*(body: unknown) {
  const request = yield* Effect.fromResult(Message.decodeSendToGroupsBody(body))
  yield* Effect.fromResult(Contact.checkTags(request.tags ?? []))
  const tags = Contact.normalizeTags(request.tags ?? [])
  if (tags.length === 0) return yield* new MissingTags()
  const { antiSpam, base, zone } = yield* outgoing(request.message, request.id)
  const stored: Message.Stored = {
    ...base,
    status: Message.initialStatus(Message.GROUP),
    total_recipients: 0,
    is_billable: false,
    type: Message.GROUP,
    tags
  }
  const store = yield* MessageStore
  yield* store.insert(stored, antiSpam)
  // The interface's group-send answer omits message_id, msisdn, country and created_by.
  const { created_by: _, message_id: __, ...response } = toWire(stored, zone)
  return { response, message_id: stored.message_id } satisfies Accepted
}, useCaseSpan("Messaging.sendToGroups"))

/** Who a group message reaches: each contact once, as a recipient or as a monitor. */
export type Role = "recipient" | "monitor"

/**
 * Recipients carry one of the tags (case-insensitive) and are SUBSCRIBED or CONFIRMED; monitors
 * are monitoring and SUBSCRIBED or CONFIRMED too, since a CANCELLED or INVITED contact never receives
 * a group message. A monitor who is also a recipient counts once, as a recipient.
 */
export const roleOf = (tags: ReadonlySet<string>) => (contact: Contact.Contact): Role | undefined => {
  if (!Contact.receivesGroupMessages(contact.status)) return undefined
  if (contact.tags.some((tag) => tags.has(tag.toLowerCase()))) return "recipient"
  return contact.monitoring ? "monitor" : undefined
}

/** The audience of a group message, resolved: every contact it reaches with their role. */
export const audience = (tags: ReadonlyArray<string>) =>
  Stream.unwrap(Effect.map(Effect.service(ContactStore), (store) => {
    const role = roleOf(new Set(tags.map((tag) => tag.toLowerCase())))
    return store.audience({ tags }).pipe(
      Stream.filterMap((contact: Contact.Contact) => {
        const r = role(contact)
        return r === undefined ? Result.fail(contact) : Result.succeed({ msisdn: contact.msisdn, role: r })
      })
    )
  }))

/** The SMS parts of one message to one number. */
const partsFor = (stored: Message.Stored, texts: ReadonlyArray<string>, msisdn: string): ReadonlyArray<Part> =>
  texts.map((text, index) => ({
    message_id: stored.message_id,
    msisdn,
    short_code: stored.short_code,
    part: index + 1,
    parts: texts.length,
    text
  }))

const advance = Effect.fnUntraced(function*(stored: Message.Stored, to: Message.Status) {
  const status = yield* Effect.fromResult(Message.transition(stored.type, stored.status, to))
  return { ...stored, status }
})

/** How many recipients are handed over per transaction when a group message is processed. */
export const deliveryBatchSize = 5000

export interface Processed {
  readonly message: Message.Stored
  /** Recipients and monitors handed the message in this run (less than the total when resumed). */
  readonly handedOver: number
}

/**
 * Told after each committed batch of a group send: the message, and the members handed it so far in this run
 * (kept even if the run is stopped next). A command line uses it to say what an interrupted broadcast did.
 */
export const HandOverProgress = Context.Reference<(messageId: string, handedOver: number) => void>(
  "@smsbook/core/Messaging/HandOverProgress",
  { defaultValue: () => () => undefined }
)

const find = Effect.fnUntraced(function*(messageId: string, options?: { readonly forUpdate?: boolean }) {
  const found = yield* (yield* MessageStore).get(messageId, options)
  return Option.isSome(found) ? found.value : yield* new MessageNotFound({ message_id: messageId })
})

/**
 * Processes a group message: PENDING → PROCESSING, resolves the audience and hands every part to the
 * carrier batch by batch (each batch records its deliveries in the same transaction, so a resumed run
 * skips whoever already got it), then READY with the counts and SENT. A message interrupted while
 * PROCESSING resumes where it stopped.
 */
export const processGroupMessage = Effect.fn("Messaging.processGroupMessage")(function*(messageId: string) {
  const store = yield* MessageStore
  const carrier = yield* Carrier
  const account = yield* Account
  // The status moves from the message as it is now (PostgreSQL: row locked): another run of it (a dispatcher's, a
  // broadcast's) may have committed batches since an unlocked read, and writing that read back lost their counts.
  const message = yield* store.transaction(Effect.gen(function*() {
    const now = yield* find(messageId, { forUpdate: true })
    if (now.type !== Message.GROUP || (now.status !== "PENDING" && now.status !== "READY")) return now
    // READY: interrupted between READY and SENT, every hand-over is done.
    const moved = yield* advance(now, now.status === "PENDING" ? "PROCESSING" : "SENT")
    yield* store.update(moved)
    return moved
  }))
  if (message.type !== Message.GROUP) {
    return yield* new IllegalTransition({ entity: "message", from: message.status, to: "PROCESSING" })
  }
  if (message.status !== "PROCESSING") return { message, handedOver: 0 } satisfies Processed
  const texts = Sms.analyzePrefixed(account.short_name, message.message).parts
  const current = message
  const progress = yield* HandOverProgress
  let handed = 0
  const totals = yield* audience(message.tags).pipe(
    Stream.grouped(deliveryBatchSize),
    // Each batch starts on a new turn of the event loop: over a synchronous store (SQLite) a whole broadcast ran in
    // one, and a Ctrl-C waited for its end (the fiber is interrupted only when the signal's callback can run).
    Stream.mapEffect((batch) =>
      Effect.andThen(Effect.yieldNow, store.transaction(Effect.gen(function*() {
        const fresh = yield* store.recordDeliveries(current.message_id, batch.map((member) => member.msisdn))
        const failed = fresh.length === 0 ? 0 : yield* carrier.handOver(fresh.flatMap((msisdn) => partsFor(current, texts, msisdn)))
        if (fresh.length > 0) yield* count(current.message_id, texts.length * fresh.length, failed)
        const recipients = batch.filter((member) => member.role === "recipient").length
        return { recipients, monitors: batch.length - recipients, fresh: fresh.length, failed }
      }))).pipe(Effect.tap((batch) => Effect.sync(() => progress(current.message_id, handed += batch.fresh))))
    ),
    Stream.runFold(
      () => ({ recipients: 0, monitors: 0, fresh: 0, failed: 0 }),
      (sum, batch) => ({
        recipients: sum.recipients + batch.recipients,
        monitors: sum.monitors + batch.monitors,
        fresh: sum.fresh + batch.fresh,
        failed: sum.failed + batch.failed
      })
    )
  )
  // READY then SENT, recorded together from the message as it is now: its counts moved batch by batch, and a dispatcher
  // may have counted failed or cancelled parts meanwhile. Another run of the same message may have finished first.
  const finished = yield* store.transaction(Effect.gen(function*() {
    const now = yield* find(messageId, { forUpdate: true })
    if (now.status !== "PROCESSING") return now
    const ready = yield* advance({ ...now, total_recipients: totals.recipients, total_monitors: totals.monitors }, "READY")
    const sent = yield* advance(ready, "SENT")
    yield* store.update(ready)
    yield* store.update(sent)
    return sent
  }))
  return { message: finished, handedOver: totals.fresh } satisfies Processed
})

/**
 * Adds a committed batch's parts to its message's `sent_count` (and those the carrier refused to `error_count`), in
 * the batch's transaction: the counts are right at every moment, through a stop and its resumption (a member handed the
 * message before a stop counts once, whatever became of its tags), and a dispatcher cancelling an opted-out member's
 * unsent part, or counting a failed one, changes counts that already hold it.
 */
const count = Effect.fnUntraced(function*(messageId: string, parts: number, failed: number) {
  const store = yield* MessageStore
  const now = yield* find(messageId, { forUpdate: true })
  yield* store.update({ ...now, sent_count: now.sent_count + parts, error_count: now.error_count + failed })
})

/** Hands an individual READY message to the carrier: SENT, with `sent_count` its parts. */
export const deliverMessage = Effect.fnUntraced(function*(messageId: string) {
  const store = yield* MessageStore
  const carrier = yield* Carrier
  const account = yield* Account
  const zone = yield* accountZone
  // Read in the transaction (PostgreSQL: row locked): a delivery from an earlier read wrote its counts over those a
  // dispatcher had counted since another delivery of the message; now it finds the message SENT and is refused.
  return yield* store.transaction(Effect.gen(function*() {
    const message = yield* find(messageId, { forUpdate: true })
    const msisdn = message.msisdn
    if (msisdn === undefined) {
      return yield* new IllegalTransition({ entity: "message", from: message.status, to: "SENT" })
    }
    const texts = Sms.analyzePrefixed(account.short_name, message.message).parts
    const sent = yield* advance(message, "SENT")
    const fresh = yield* store.recordDeliveries(message.message_id, [msisdn])
    const failed = fresh.length === 0 ? 0 : yield* carrier.handOver(partsFor(message, texts, msisdn))
    const delivered = { ...sent, sent_count: texts.length, error_count: failed }
    yield* store.update(delivered)
    return toWire(delivered, zone)
  }))
}, useCaseSpan("Messaging.deliverMessage"))

const optOutKeywords = new Set(["STOP", "STOPALL", "UNSUBSCRIBE", "END", "QUIT", "CANCEL", "OPTOUT"])
const resubscribeKeywords = new Set(["START", "UNSTOP"])

/** Punctuation a handset's keyboard or its writer puts around a word: `Stop.`, `STOP!`, `"stop"`, `¡Stop!`. */
const punctuation = /^\p{P}$/u

/** Blanks and punctuation: what may surround an opt-out keyword. */
const isBlankOrPunctuation = (char: string): boolean => isBlankCharacter(char) || punctuation.test(char)

/**
 * The text without the characters `isFrame` takes around it. A scan from each end, one code point at a time: linear in
 * the text, which an anchored regex at its end is not.
 */
const strip = (text: string, isFrame: (char: string) => boolean): string => {
  let start = 0
  let end = text.length
  while (start < end) {
    const char = String.fromCodePoint(text.codePointAt(start) ?? 0)
    if (!isFrame(char)) break
    start += char.length
  }
  while (end > start) {
    const low = text.charCodeAt(end - 1)
    const width = low >= 0xdc00 && low <= 0xdfff && end - 2 >= start ? 2 : 1
    if (!isFrame(text.slice(end - width, end))) break
    end -= width
  }
  return text.slice(start, end)
}

/** The word inside its frame, compared in capitals; NFKC folds a CJK keyboard's full-width Latin (`ＳＴＯＰ`) to ASCII. */
const wordOf = (text: string, isFrame: (char: string) => boolean): string =>
  strip(text, isFrame).normalize("NFKC").toUpperCase()

/**
 * What an inbound text asks for: only a keyword alone in the text counts, in any case, with blanks around it
 * (invisible format characters among them: a right-to-left keyboard's direction marks, a zero-width space). An opt-out
 * keyword also with punctuation around it (`Stop.`, which a person who writes it means as STOP: a missed opt-out is
 * the costlier mistake); a resubscribe only as the bare word, which is explicit (`Start?` asks, it does not say). A
 * word typed in full-width letters is the same word.
 */
export const keywordAction = (text: string): "opt-out" | "resubscribe" | undefined => {
  if (optOutKeywords.has(wordOf(text, isBlankOrPunctuation))) return "opt-out"
  return resubscribeKeywords.has(wordOf(text, isBlankCharacter)) ? "resubscribe" : undefined
}

/** How an inbound sender is read. */
export interface ReceiveOptions {
  /**
   * The country of a sender written nationally (`07400123456`, as carriers hand over handsets of their own network):
   * an ISO code, a name or a calling code, read as an import's country cells are. Without it such a sender is refused.
   */
  readonly defaultCountry?: string | undefined
}

/**
 * Records an inbound (MO) SMS so `listMessages` shows it, and applies its keyword in the same
 * transaction: an opt-out keyword makes the sender CANCELLED and suppressed, START/UNSTOP
 * resubscribes (a CANCELLED or SUBSCRIBED contact; others stay) and lifts the suppression. A keyword
 * from a number not in the book creates the contact (`added_from` SMS). Never lost to a race: no
 * `ContactExists`, and the transaction is retried while the database reports contention.
 */
export const receiveMessage = Effect.fnUntraced(function*(from: string, text: string, options: ReceiveOptions = {}) {
  const msisdn = yield* Effect.fromResult(Msisdn.parse(
    from,
    options.defaultCountry === undefined ? {} : { defaultCountry: options.defaultCountry, readCountry: Country.lookup }
  ))
  const account = yield* Account
  const zone = yield* accountZone
  const createdAt = yield* Clock.currentTimeMillis
  // What the carrier handed over is recorded, whatever it holds: a NUL or a lone surrogate (which no store keeps as
  // such, and PostgreSQL refuses) as U+FFFD.
  const recorded = text.toWellFormed().replaceAll("\u0000", "\uFFFD")
  const stored: Message.Stored = {
    message_id: yield* ids.messageId(createdAt),
    short_code: account.short_code,
    country: Msisdn.split(msisdn).country_code,
    msisdn,
    direction: "MO",
    status: "SENT",
    message: recorded,
    total_recipients: 0,
    sent_count: 0,
    error_count: 0,
    total_monitors: 0,
    is_scheduled: false,
    is_billable: false,
    created_at: createdAt,
    type: Message.INDIVIDUAL,
    tags: [],
    segments: Sms.analyze(recorded).segments
  }
  const messages = yield* MessageStore
  const contacts = yield* ContactStore
  const action = keywordAction(text)
  // One transaction for the message and its keyword, retried on contention: the message is built
  // once, outside, and its insert replaces by message_id, so a retry records it once.
  return yield* contacts.retrying(Effect.gen(function*() {
    yield* messages.insert(stored)
    if (action === undefined) return { message: toWire(stored, zone), action }
    const contact = yield* ContactBook.applyKeyword(msisdn, action)
    return { message: toWire(stored, zone), action, contact }
  }))
}, useCaseSpan("Messaging.receiveMessage"))

/** Whether any contact would receive a group message to these tags (monitors alone do not count). */
export const hasRecipients = (tags: ReadonlyArray<string>) =>
  audience(tags).pipe(
    Stream.filter((member) => member.role === "recipient"),
    Stream.take(1),
    Stream.runCount,
    Effect.map((count) => count > 0)
  )

export interface Broadcast {
  readonly message: Message.Stored
  readonly handedOver: number
  /** An unfinished message with the same id was picked up where it stopped. */
  readonly resumed: boolean
}

/**
 * A group send carried through to SENT: `sendToGroups` then `processGroupMessage`. With an `id`
 * whose message is still unfinished (an interrupted run), that message is resumed instead — nobody
 * receives it twice — provided the text and tags are the same. A send that would reach nobody is
 * refused (`NoRecipients`) unless `allowEmpty`, before anything is created.
 */
export const broadcast = Effect.fn("Messaging.broadcast")(function*(
  body: unknown,
  options: { readonly allowEmpty: boolean }
) {
  const request = yield* Effect.fromResult(Message.decodeSendToGroupsBody(body))
  const tags = Contact.normalizeTags(request.tags ?? [])
  const unfinished = yield* Resumption.unfinished(request.id, request.message, tags)
  if (Option.isSome(unfinished)) {
    const processed = yield* processGroupMessage(unfinished.value.message_id)
    return { ...processed, resumed: true } satisfies Broadcast
  }
  // A new broadcast only: one under a longer tag from before the limit, interrupted, still resumes above.
  yield* Effect.fromResult(Contact.checkTags(request.tags ?? []))
  if (tags.length > 0 && !options.allowEmpty && !(yield* hasRecipients(tags))) {
    return yield* new NoRecipients({ tags })
  }
  const accepted = yield* sendToGroups(body)
  const processed = yield* processGroupMessage(accepted.message_id)
  return { ...processed, resumed: false } satisfies Broadcast
})
