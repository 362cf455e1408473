/**
 * The in-memory adapter of every port: the reference semantics the contract suite pins down,
 * and the store of `memory:` URLs and of tests. Transactions snapshot and restore on failure.
 */
import { Context, Effect, Exit, Layer, Option, Semaphore, Stream } from "effect"
import * as Carrier from "./Carrier.ts"
import type * as Contact from "./Contact.ts"
import * as ContactStore from "./ContactStore.ts"
import { ContactExists, ContactNotFound, DuplicateSend } from "./Errors.ts"
import type * as Message from "./Message.ts"
import * as MessageStore from "./MessageStore.ts"
import * as Ports from "./Ports.ts"

interface State {
  contacts: Map<string, Contact.Contact>
  /** The suppression list: numbers that opted out, whether or not their contact still exists. */
  suppressed: Set<string>
  messages: Map<string, Message.Stored>
  deliveries: Map<string, Set<string>>
  outbox: Array<Carrier.Part>
}

const copy = (state: State): State => ({
  contacts: new Map(state.contacts),
  suppressed: new Set(state.suppressed),
  messages: new Map(state.messages),
  deliveries: new Map([...state.deliveries].map(([id, set]) => [id, new Set(set)])),
  outbox: [...state.outbox]
})

const lower = (text: string) => text.toLowerCase()

const byCreation = (a: Message.Stored, b: Message.Stored) =>
  a.created_at - b.created_at || (a.message_id < b.message_id ? -1 : a.message_id > b.message_id ? 1 : 0)

const matchesContact = (filter: ContactStore.ListFilter) => {
  const query = filter.query === undefined ? undefined : lower(filter.query)
  return (contact: Contact.Contact) =>
    (filter.after === undefined || contact.msisdn > filter.after) &&
    (filter.status === undefined || contact.status === filter.status) &&
    (query === undefined || [contact.msisdn, contact.first_name, contact.last_name, contact.full_name]
      .some((text) => lower(text).includes(query)))
}

const matchesMessage = (filter: MessageStore.Filter) => {
  const group = filter.group === undefined ? undefined : lower(filter.group)
  return (message: Message.Stored) =>
    (filter.from === undefined || message.created_at >= filter.from) &&
    (filter.to === undefined || message.created_at <= filter.to) &&
    (filter.direction === undefined || message.direction === filter.direction) &&
    (filter.msisdn === undefined || message.msisdn === filter.msisdn) &&
    (group === undefined || message.tags.some((tag) => lower(tag) === group))
}


const InTransaction = Context.Reference<boolean>("@smsbook/core/MemoryStore/InTransaction", {
  defaultValue: () => false
})

/** Builds the three ports over one shared state, plus a view of the carrier's outbox. */
export const make: Effect.Effect<Ports.Services> = Effect.gen(function*() {
  let state: State = { contacts: new Map(), suppressed: new Set(), messages: new Map(), deliveries: new Map(), outbox: [] }
  // One writer at a time, as a database would serialise transactions.
  const lock = yield* Semaphore.make(1)

  const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(Effect.service(InTransaction), (nested) =>
      nested ? effect : lock.withPermits(1)(
        Effect.suspend(() => {
          const snapshot = copy(state)
          return effect.pipe(
            Effect.provideService(InTransaction, true),
            Effect.onExit((exit) => Effect.sync(() => {
              if (Exit.isFailure(exit)) state = snapshot
            }))
          )
        })
      ))

  // A single write runs when executed (never when built) and holds the lock, so it cannot interleave
  // with a transaction (whose rollback would otherwise drop it) nor race a concurrent check-then-write.
  const serialized = <A, E>(write: () => Effect.Effect<A, E>): Effect.Effect<A, E> =>
    Effect.flatMap(Effect.service(InTransaction), (nested) =>
      nested ? Effect.suspend(write) : lock.withPermits(1)(Effect.suspend(write)))

  const sortedContacts = () => [...state.contacts.values()].sort((a, b) => a.msisdn < b.msisdn ? -1 : 1)

  /** Stores `contact` as the opt-out law says (see `ContactStore`): `keep` holds a stored or listed opt-out. */
  const store = (contact: Contact.Contact, keep: boolean): Contact.Contact => {
    const cancelled = keep && (state.suppressed.has(contact.msisdn) || state.contacts.get(contact.msisdn)?.status === "CANCELLED")
    const stored: Contact.Contact = cancelled ? { ...contact, status: "CANCELLED" } : contact
    state.contacts.set(stored.msisdn, stored)
    if (stored.status === "CANCELLED") state.suppressed.add(stored.msisdn)
    return stored
  }

  const get = (msisdn: string) => Effect.sync(() => Option.fromNullishOr(state.contacts.get(msisdn)))

  const contacts = ContactStore.ContactStore.of({
    get,
    getForUpdate: get,
    getOrInsert: (contact) =>
      serialized(() =>
        Effect.sync(() => {
          const stored = state.contacts.get(contact.msisdn)
          return stored === undefined ? { contact: store(contact, true), created: true } : { contact: stored, created: false }
        })
      ),
    getMany: (msisdns) =>
      Effect.sync(() => {
        const found = new Map<string, Contact.Contact>()
        for (const msisdn of msisdns) {
          const contact = state.contacts.get(msisdn)
          if (contact !== undefined) found.set(msisdn, contact)
        }
        return found
      }),
    insert: (contact) =>
      serialized(() =>
        state.contacts.has(contact.msisdn)
          ? Effect.fail(new ContactExists({ msisdn: contact.msisdn }))
          : Effect.sync(() => store(contact, true))
      ),
    update: (contact) =>
      serialized(() =>
        state.contacts.has(contact.msisdn)
          ? Effect.sync(() => void store(contact, false))
          : Effect.fail(new ContactNotFound({ msisdn: contact.msisdn }))
      ),
    remove: (msisdn) =>
      serialized(() => state.contacts.delete(msisdn) ? Effect.void : Effect.fail(new ContactNotFound({ msisdn }))),
    write: ({ insert, update }) =>
      serialized(() =>
        Effect.sync(() => {
          for (const contact of [...insert, ...update]) store(contact, true)
        })
      ),
    suppressed: (msisdns) => Effect.sync(() => new Set(msisdns.filter((msisdn) => state.suppressed.has(msisdn)))),
    listSuppressed: ({ after, limit }) =>
      Effect.sync(() => [...state.suppressed].filter((msisdn) => after === undefined || msisdn > after).sort().slice(0, limit)),
    suppress: (msisdn) => serialized(() => Effect.sync(() => void state.suppressed.add(msisdn))),
    cancel: (msisdns) =>
      serialized(() =>
        Effect.sync(() => {
          let moved = 0
          for (const msisdn of new Set(msisdns)) {
            const contact = state.contacts.get(msisdn)
            if (contact !== undefined && contact.status !== "CANCELLED") moved++
            if (contact !== undefined) store({ ...contact, status: "CANCELLED" }, false)
            state.suppressed.add(msisdn)
          }
          return moved
        })
      ),
    unsuppress: (msisdn) => serialized(() => Effect.sync(() => void state.suppressed.delete(msisdn))),
    forget: (msisdn) =>
      serialized(() =>
        Effect.sync(() => {
          const hadContact = state.contacts.delete(msisdn)
          const hadEntry = state.suppressed.delete(msisdn)
          return hadContact || hadEntry
        })
      ),
    list: (filter) =>
      Effect.sync(() => sortedContacts().filter(matchesContact(filter)).slice(filter.start, filter.start + filter.limit)),
    audience: ({ tags }) =>
      Stream.suspend(() => {
        const wanted = new Set(tags.map(lower))
        return Stream.fromIterable(
          sortedContacts().filter((contact) => contact.monitoring || contact.tags.some((tag) => wanted.has(lower(tag))))
        )
      }),
    count: Effect.sync(() => state.contacts.size),
    transaction,
    // One process, one lock: nothing to contend with.
    retrying: transaction
  })

  const messages = MessageStore.MessageStore.of({
    insert: (message, antiSpam) =>
      serialized(() => {
        if (antiSpam !== undefined) {
          const previous = [...state.messages.values()].find((m) => m.id === antiSpam.id && m.created_at >= antiSpam.since)
          if (previous !== undefined) {
            return Effect.fail(
              new DuplicateSend({
                id: antiSpam.id,
                message_id: previous.message_id,
                created_at: new Date(previous.created_at).toISOString()
              })
            )
          }
        }
        state.messages.set(message.message_id, message)
        return Effect.void
      }),
    get: (messageId) => Effect.sync(() => Option.fromNullishOr(state.messages.get(messageId))),
    findById: (id) =>
      Effect.sync(() => Option.fromNullishOr([...state.messages.values()].filter((m) => m.id === id).sort(byCreation).at(-1))),
    update: (message) => serialized(() => Effect.sync(() => void state.messages.set(message.message_id, message))),
    list: (page) =>
      Effect.sync(() =>
        [...state.messages.values()].filter(matchesMessage(page)).sort(byCreation).slice(page.start, page.start + page.limit)
      ),
    stream: (filter) =>
      Stream.suspend(() => Stream.fromIterable([...state.messages.values()].filter(matchesMessage(filter)).sort(byCreation))),
    recordDeliveries: (messageId, msisdns) =>
      serialized(() =>
        Effect.sync(() => {
          const recorded = state.deliveries.get(messageId) ?? new Set<string>()
          state.deliveries.set(messageId, recorded)
          return msisdns.filter((msisdn) => !recorded.has(msisdn) && recorded.add(msisdn) !== undefined)
        })
      ),
    countDeliveries: (messageId) => Effect.sync(() => state.deliveries.get(messageId)?.size ?? 0),
    transaction
  })

  const carrier = Carrier.Carrier.of({
    handOver: (parts) =>
      serialized(() =>
        Effect.sync(() => {
          for (const part of parts) state.outbox.push(part)
          return 0
        })
      )
  })

  const outbox = Carrier.Outbox.of({ parts: Effect.sync(() => [...state.outbox]) })
  return { contacts, messages, carrier, outbox }
})

/** A fresh, empty memory store providing every port (and the outbox of its carrier). */
export const layer: Layer.Layer<Ports.Ports> = Layer.effectContext(Effect.map(make, Ports.context))
