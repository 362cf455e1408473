/**
 * The contact export: every contact matching `--tags`, `--status` and `--query`, streamed page by
 * page (no cap), as spreadsheet-safe CSV in the import's own column names, JSON or JSON Lines.
 */
import { Contact, ContactStore } from "@smsbook/core"
import { Effect } from "effect"
import * as PagedExport from "../internal/pagedExport.ts"

/**
 * The CSV columns: what `smsbook import` reads back. `msisdn`, `first_name`, `last_name` and `tags` as in any file;
 * `status` and `monitoring` because the import knows its own export by its `msisdn`, `status` and `monitoring`
 * columns: an opt-out always, and the status and monitoring of a contact it creates, so a moved book keeps its
 * opt-outs, statuses and monitors (a contact the book already holds keeps its own).
 * `country_code` is each number's calling code. Beside a `msisdn` column, the import reads such a pair as the
 * interface means it, the calling code and the national number, so the digits read back as written whatever
 * `--default-country` it is given (without the column, `3546111234`, an Icelandic mobile, came back as a US number
 * under `--default-country US`), and never as another number of the same country (`internal/contactRows.ts`).
 */
export const columns = ["msisdn", "first_name", "last_name", "tags", "status", "monitoring", "country_code"] as const

export type Format = PagedExport.Format

export interface Filter {
  /** Contacts carrying any of these tags (case-insensitive); none: every contact. */
  readonly tags: ReadonlyArray<string>
  readonly status?: Contact.Status | undefined
  readonly query?: string | undefined
}

export interface Options {
  readonly format: Format
  /** CSV only: a UTF-8 byte order mark and CRLF line ends, so Excel reads accents and emoji right. */
  readonly excel: boolean
  /** Contacts read per store round trip. */
  readonly pageSize?: number
}

export interface Result {
  readonly rows: number
  readonly format: Format
  readonly out: string
}

const row = (contact: Contact.Contact) => ({
  msisdn: contact.msisdn,
  first_name: contact.first_name,
  last_name: contact.last_name,
  tags: contact.tags.join(","),
  status: contact.status,
  monitoring: contact.monitoring,
  country_code: contact.country_code
})

/** Whether `contact` carries one of `wanted` (lower-cased); an empty list wants every contact. */
const tagged = (wanted: ReadonlySet<string>) => (contact: Contact.Contact): boolean =>
  wanted.size === 0 || contact.tags.some((tag) => wanted.has(tag.toLowerCase()))

/**
 * Writes every matching contact to `out` (`-`: stdout), in the store's order (by msisdn), a keyset page at a time
 * (`internal/pagedExport.ts`): by offset (until 2026-11-27) each page skipped every row before it (1M contacts took
 * 12.3 s, now 6.1), and a contact added or deleted meanwhile by another process shifted the later pages, so that a
 * contact was written twice or not at all. Each page is read on its own, so a contact another process changes during
 * a long export is written as it was when its page was read.
 */
export const write = Effect.fnUntraced(function*(filter: Filter, out: string, options: Options) {
  const store = yield* ContactStore.ContactStore
  const rows = yield* PagedExport.write(out, { ...options, pageSize: Math.max(1, options.pageSize ?? 2000) }, {
    page: (after: Contact.Contact | undefined, limit) =>
      store.list({
        limit,
        start: 0,
        ...(after === undefined ? {} : { after: after.msisdn }),
        ...(filter.status === undefined ? {} : { status: filter.status }),
        ...(filter.query === undefined ? {} : { query: filter.query })
      }),
    keep: tagged(new Set(filter.tags.map((tag) => tag.toLowerCase()))),
    columns,
    row,
    json: (contact) => contact
  })
  return { rows, format: options.format, out } satisfies Result
})
