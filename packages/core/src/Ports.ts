/**
 * Every storage port together: the contact store, the message store, the carrier and its outbox
 * view. Each adapter (memory, SQLite, PostgreSQL) builds these four and provides them as one context.
 */
import { Context } from "effect"
import * as Carrier from "./Carrier.ts"
import * as ContactStore from "./ContactStore.ts"
import * as MessageStore from "./MessageStore.ts"

/** The services a store layer provides. */
export type Ports = ContactStore.ContactStore | MessageStore.MessageStore | Carrier.Carrier | Carrier.Outbox

/** The four ports as values, as an adapter's `make` builds them over one connection or state. */
export interface Services {
  readonly contacts: ContactStore.ContactStore["Service"]
  readonly messages: MessageStore.MessageStore["Service"]
  readonly carrier: Carrier.Carrier["Service"]
  readonly outbox: Carrier.Outbox["Service"]
}

/** The context of a store layer: each port under its key. */
export const context = ({ carrier, contacts, messages, outbox }: Services): Context.Context<Ports> =>
  Context.make(ContactStore.ContactStore, contacts).pipe(
    Context.add(MessageStore.MessageStore, messages),
    Context.add(Carrier.Carrier, carrier),
    Context.add(Carrier.Outbox, outbox)
  )
