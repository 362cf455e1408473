/**
 * How an adapter is put together: its contact, message, carrier and API key modules, each made over the
 * adapter's own connection, so SQLite and PostgreSQL are built the same way.
 */

/** An adapter's modules, each of which builds its port over a connection of type `C`. */
export interface Modules<C, Contacts, Messages, Carrier, Outbox, ApiKeys> {
  readonly Contacts: { readonly make: (connection: C, pageSize: number) => Contacts }
  readonly Messages: { readonly make: (connection: C, pageSize: number) => Messages }
  readonly Carrier: { readonly make: (connection: C) => Carrier; readonly outbox: (connection: C) => Outbox }
  readonly ApiKeys: { readonly make: (connection: C) => ApiKeys }
}

/** The ports and the API keys over `connection`, reading `pageSize` rows a page (at least one, a whole number). */
export const assemble = <C, Contacts, Messages, Carrier, Outbox, ApiKeys>(
  modules: Modules<C, Contacts, Messages, Carrier, Outbox, ApiKeys>,
  connection: C,
  pageSize: number
) => {
  const rows = Math.max(1, Math.floor(pageSize))
  return {
    contacts: modules.Contacts.make(connection, rows),
    messages: modules.Messages.make(connection, rows),
    carrier: modules.Carrier.make(connection),
    outbox: modules.Carrier.outbox(connection),
    apiKeys: modules.ApiKeys.make(connection)
  }
}
