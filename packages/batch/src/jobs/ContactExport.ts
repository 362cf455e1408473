/**
 * The contact export: every contact matching `--tags`, `--status` and `--query`, streamed page by
 * page (no cap), as spreadsheet-safe CSV in the import's own column names, JSON or JSON Lines.
 */
import { Contact, ContactStore } from "@smsbook/core"
import { stringify } from "csv-stringify/sync"
import { Effect } from "effect"
import * as files from "../internal/files.ts"
import * as spreadsheet from "../internal/csv/spreadsheet.ts"

/**
 * The CSV columns. `msisdn`, `first_name`, `last_name` and `tags` are what `smsbook import` reads,
 * and `status` as far as an opt-out goes, so an export imports back as it was, opt-outs included; `monitoring` is for
 * people (an import never sets it: monitoring is an explicit edit), as `status` is otherwise (it never subscribes).
 */
export const columns = ["msisdn", "first_name", "last_name", "tags", "status", "monitoring"] as const

export type Format = "csv" | "json" | "jsonl"

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
  monitoring: contact.monitoring
})

const csvOf = (contacts: ReadonlyArray<Contact.Contact>, header: boolean, excel: boolean): string =>
  stringify(contacts.map(row), {
    ...spreadsheet.csvOptions,
    record_delimiter: excel ? "windows" : "unix",
    header,
    columns: [...columns]
  })

/** Whether `contact` carries one of `wanted` (lower-cased); an empty list wants every contact. */
const tagged = (wanted: ReadonlySet<string>) => (contact: Contact.Contact): boolean =>
  wanted.size === 0 || contact.tags.some((tag) => wanted.has(tag.toLowerCase()))

/**
 * Writes every matching contact to `out` (`-`: stdout), in the store's order (by msisdn), a page at
 * a time: memory stays flat whatever the size of the book. A file appears only when complete. Each page is read on
 * its own, so a contact another process changes during a long export is written as it was when its page was read.
 */
export const write = Effect.fnUntraced(function*(filter: Filter, out: string, options: Options) {
  const store = yield* ContactStore.ContactStore
  const pageSize = Math.max(1, options.pageSize ?? 2000)
  const wanted = new Set(filter.tags.map((tag) => tag.toLowerCase()))
  const newline = "\n"
  let rows = 0
  yield* Effect.scoped(Effect.gen(function*() {
    const sink = yield* files.open(out)
    if (options.excel && options.format === "csv") yield* sink.write("\uFEFF")
    if (options.format === "json") yield* sink.write("[")
    if (options.format === "csv") yield* sink.write(csvOf([], true, options.excel))
    // Keyset pages (after the last number written): an offset made each page skip every row before it (1M contacts
    // took 12.3 s), and a contact added or deleted meanwhile by another process shifted the later pages, so that a
    // contact was written twice or not at all.
    for (let after: string | undefined;;) {
      const page = yield* store.list({
        limit: pageSize,
        start: 0,
        ...(after === undefined ? {} : { after }),
        ...(filter.status === undefined ? {} : { status: filter.status }),
        ...(filter.query === undefined ? {} : { query: filter.query })
      })
      const chosen = page.filter(tagged(wanted))
      if (chosen.length > 0) {
        const text = options.format === "csv"
          ? csvOf(chosen, false, options.excel)
          : options.format === "jsonl"
          ? chosen.map((contact) => JSON.stringify(contact) + newline).join("")
          : chosen.map((contact, index) => `${rows === 0 && index === 0 ? newline : `,${newline}`}  ${JSON.stringify(contact)}`).join("")
        rows += chosen.length
        yield* sink.write(text)
      }
      const last = page.at(-1)
      if (page.length < pageSize || last === undefined) break
      after = last.msisdn
    }
    if (options.format === "json") yield* sink.write(rows === 0 ? `]${newline}` : `${newline}]${newline}`)
    yield* sink.close
  }))
  return { rows, format: options.format, out } satisfies Result
})
