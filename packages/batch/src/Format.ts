/**
 * The human text of every result a command prints without `--json`: contacts, messages, price
 * inspections, import summaries, broadcasts and report summaries, as lines.
 */
import type { Contact, Message } from "@smsbook/core"
import type * as Broadcast from "./jobs/Broadcast.ts"
import type * as BroadcastPlan from "./jobs/BroadcastPlan.ts"
import type * as Import from "./jobs/Import.ts"
import type * as Inspection from "./jobs/Inspection.ts"
import type * as Report from "./jobs/Report.ts"
import type * as Suppressions from "./jobs/Suppressions.ts"
import stringWidth from "string-width"
import * as Visible from "./internal/visible.ts"

/**
 * Rows under a header, every column as wide as its widest cell (two spaces apart, the last one not
 * padded), numbers right-aligned: the text form of every list. Widths are the terminal's columns as the text is
 * shown (`Visible.show`): a CJK character or an emoji takes two, a combining accent none.
 */
export const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>, numeric: ReadonlyArray<number> = []): ReadonlyArray<string> => {
  const width = (text: string) => stringWidth(Visible.show(text))
  const widths = header.map((title, column) => Math.max(width(title), ...rows.map((row) => width(row[column] ?? ""))))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((cell, column) => {
      const pad = " ".repeat(Math.max(0, (widths[column] ?? 0) - width(cell)))
      if (numeric.includes(column)) return pad + cell
      return column === cells.length - 1 ? cell : cell + pad
    }).join("  ")
  return [line(header), ...rows.map(line)]
}

const nameOf = (contact: Contact.Contact | Contact.ShortContact): string =>
  [contact.first_name, contact.last_name].filter((part) => part !== "").join(" ")

/** Contacts as a table: msisdn, status, name, and for full contacts tags and monitoring. */
export const contacts = (all: ReadonlyArray<Contact.Contact | Contact.ShortContact>): ReadonlyArray<string> => {
  if (all.length === 0) return ["no contacts"]
  const full = all.every((c) => "tags" in c)
  return table(
    full ? ["MSISDN", "STATUS", "NAME", "TAGS", "MONITORING"] : ["MSISDN", "STATUS", "NAME"],
    all.map((c) => {
      const base = [c.msisdn, c.status, nameOf(c) === "" ? "-" : nameOf(c)]
      return "tags" in c && full ? [...base, c.tags.join(",") || "-", c.monitoring ? "yes" : "no"] : base
    })
  )
}

/** Messages as a table: when, direction, status, to whom, SMS, the text. */
export const messages = (all: ReadonlyArray<Message.Message>): ReadonlyArray<string> =>
  all.length === 0 ? ["no messages"] : table(
    ["CREATED_ON", "DIR", "STATUS", "TO/FROM", "SMS", "MESSAGE"],
    all.map((m) => [
      m.created_on,
      m.direction,
      m.status,
      m.msisdn ?? `group (${m.total_recipients}+${m.total_monitors})`,
      String(m.sent_count),
      JSON.stringify(m.message)
    ]),
    [4]
  )

/** One line: msisdn, status, name, and (for a full contact) tags and monitoring. */
export const contact = (contact: Contact.Contact | Contact.ShortContact): string => {
  const name = [contact.first_name, contact.last_name].filter((part) => part !== "").join(" ")
  const base = `${contact.msisdn}  ${contact.status.padEnd(10)}  ${name === "" ? "-" : name}`
  return "tags" in contact
    ? `${base}${contact.tags.length === 0 ? "" : `  [${contact.tags.join(", ")}]`}${contact.monitoring ? "  (monitoring)" : ""}`
    : base
}

/** A contact shown alone: its line, then where it came from. */
export const contactDetail = (c: Contact.Contact): ReadonlyArray<string> => [
  contact(c),
  `  added from ${c.added_from}, profile ${c.profile_uid}`
]

/** One line: when, direction, status, to whom, how many SMS, the text. */
export const message = (message: Message.Message): string =>
  [
    message.created_on,
    message.direction,
    message.status.padEnd(10),
    message.msisdn ?? `group (${message.total_recipients} recipients, ${message.total_monitors} monitors)`,
    `${message.sent_count} SMS`,
    JSON.stringify(message.message)
  ].join("  ")

export const inspection = (report: Inspection.Inspection): ReadonlyArray<string> => [
  `prefixed:  ${JSON.stringify(report.prefixed)}`,
  `length:    ${report.length} of ${report.budget} characters (${report.fits ? "fits" : "TOO LONG"})`,
  `encoding:  ${report.encoding}, ${report.units} ${report.encoding === "GSM-7" ? "septets" : "UTF-16 units"}`,
  `segments:  ${report.segments}`,
  ...report.parts.map((part, index) => `  part ${index + 1}: ${JSON.stringify(part)}`),
  ...(report.ucs2_characters.length === 0 ? [] : [
    "characters forcing UCS-2:",
    ...report.ucs2_characters.map(({ char, index, suggestion }) =>
      `  ${JSON.stringify(char)} U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")} at ${index}` +
      (suggestion === undefined ? " (no GSM look-alike)" : ` → use ${JSON.stringify(suggestion)}`)
    ),
    ...(report.gsm_safe === undefined ? [] : [
      `with look-alikes: ${report.gsm_safe.encoding}, ${report.gsm_safe.segments} segment(s)` +
      (report.gsm_safe.fits ? "" : `, TOO LONG (${report.gsm_safe.length} of ${report.budget} characters)`)
    ])
  ])
]

const number = (value: number): string => value.toLocaleString("en-US")

const plural = (count: number, one: string, many = `${one}s`) => `${number(count)} ${count === 1 ? one : many}`

const counts = (record: { readonly [key: string]: number | undefined }): string =>
  Object.entries(record).filter(([, count]) => count !== undefined && count > 0).map(([name, count]) =>
    `${number(count ?? 0)} ${name}`
  ).join(", ")

/** The import summary of `file` (`-`: standard input); a list of opted-out numbers cut at its limit ends in "…". */
export const importSummary = (file: string, summary: Import.Summary): ReadonlyArray<string> => {
  const source = file === "-" ? "standard input" : file
  const delimiter = summary.delimiter === "\t" ? "tab" : summary.delimiter
  const lines = [
    `${summary.dry_run ? "dry run of" : summary.committed ? "imported" : "nothing imported from"} ${source} (${summary.encoding}, delimiter ${delimiter}): ${
      plural(summary.read, "row")
    } read`,
    `  created ${number(summary.created)}, updated ${number(summary.updated)}, unchanged ${
      number(summary.unchanged)
    }, rejected ${number(summary.rejected)}`
  ]
  const rules = counts(summary.rules)
  if (rules !== "") lines.push(`  numbers read as: ${rules}`)
  const notes = counts(summary.notes)
  if (notes !== "") lines.push(`  notes: ${notes}`)
  const then: { readonly [field: string]: ReadonlyArray<string> } = {
    msisdn: summary.fallback_columns,
    country: summary.country_fallback_columns
  }
  const fields = Object.entries(summary.columns).map(([field, column]) => {
    const others = then[field] ?? []
    return others.length > 0 ? `${field} ← ${column} (then ${others.join(", ")})` : `${field} ← ${column}`
  })
  lines.push(`  columns: ${fields.join(", ")}`)
  if (summary.duplicates > 0) lines.push(`  ${plural(summary.duplicates, "row")} repeated an earlier number: merged (tags added)`)
  if (summary.opted_out > 0) {
    const shown = summary.opted_out_msisdns.join(", ")
    const more = summary.opted_out_msisdns_complete ? "" : ", …"
    lines.push(`  ${plural(summary.opted_out, "row")} of opted-out contacts, left CANCELLED: ${shown}${more}`)
  }
  if (summary.opted_out_by_file > 0) {
    lines.push(`  ${plural(summary.opted_out_by_file, "number")} opted out, as the file's status column says (CANCELLED, suppressed)`)
  }
  if (summary.rejected > 0) {
    lines.push(`  rejected: ${counts(summary.reasons)}${summary.rejects_file === null ? "" : ` → ${summary.rejects_file}`}`)
  }
  if (summary.unknown_columns.length > 0) lines.push(`  columns not read: ${summary.unknown_columns.join(", ")}`)
  if (summary.max_rejects_exceeded) lines.push("  too many rejected rows (--max-rejects): rolled back, the store is unchanged")
  else if (summary.dry_run) lines.push("  dry run: rolled back, the store is unchanged")
  lines.push(`  ${(summary.elapsed_ms / 1000).toFixed(1)} s, ${number(summary.rows_per_second)} rows/s`)
  return lines
}

/** The summary of a suppression file loaded from `file` (`-`: standard input). */
export const suppressionsLoaded = (file: string, loaded: Suppressions.Loaded): ReadonlyArray<string> => {
  const source = file === "-" ? "standard input" : file
  const lines = [
    `${loaded.dry_run ? "dry run of" : loaded.committed ? "loaded" : "nothing loaded from"} ${source}: ${plural(loaded.read, "row")} read, ${
      plural(loaded.numbers, "number")
    }`,
    `  added to the suppression list ${number(loaded.added)}, already on it ${number(loaded.already_suppressed)}; contacts opted out ${
      number(loaded.contacts_opted_out)
    }`,
    `  columns: ${Object.entries(loaded.columns).map(([field, column]) => `${field} ← ${column}`).join(", ")}`
  ]
  if (loaded.columns_not_read.length > 0) lines.push(`  columns not read: ${loaded.columns_not_read.join(", ")}`)
  if (loaded.duplicates > 0) lines.push(`  ${plural(loaded.duplicates, "row")} repeated an earlier number`)
  if (loaded.rejected > 0) {
    lines.push(`  rejected: ${counts(loaded.reasons)}${loaded.rejects_file === null ? "" : ` → ${loaded.rejects_file}`}`)
  }
  if (loaded.dry_run) lines.push("  dry run: rolled back, the book is unchanged")
  return lines
}

/** What `suppressions add` did to one number. */
export const suppressionAdded = (added: Suppressions.Added): ReadonlyArray<string> => [
  `${added.msisdn} ${added.already_suppressed ? "was already on the suppression list" : "added to the suppression list"}${
    added.contact_opted_out ? "; its contact is now CANCELLED" : ""
  }`
]

/**
 * A send's summary. `sent_count` counts the SMS handed to the carrier: the audience's parts, unless a stopped run
 * reached members who have left the tags since, or a member's unsent parts were cancelled when it opted out.
 */
export const broadcastSent = (sent: Broadcast.Sent): ReadonlyArray<string> => {
  const audience = (sent.recipients + sent.monitors) * sent.segments
  return [
    `${sent.status}: message ${sent.message_id}${sent.resumed ? " (resumed)" : ""}`,
    `  (${sent.recipients} recipients + ${sent.monitors} monitors) × ${sent.segments} segment(s) = ${audience} SMS` +
    (audience === sent.sent_count ? "" : `; ${sent.sent_count} SMS handed to the carrier (members reached before a stop who have left the tags since, parts cancelled for an opt-out)`),
    `  handed over to ${sent.handed_over} numbers in this run, ${sent.error_count} SMS failed`
  ]
}

export const broadcastPlan = (plan: BroadcastPlan.Summary): ReadonlyArray<string> => [
  plan.resume === undefined
    ? `would send ${JSON.stringify(plan.prefixed)}`
    : `would resume message ${plan.resume.message_id}, ${JSON.stringify(plan.prefixed)}: ${plan.resume.handed_over_before} ` +
      `member(s) were handed it before, ${plan.resume.remaining} remain`,
  `  ${plan.encoding}, ${plan.segments} segment(s) per recipient`,
  `  ${plan.recipients} recipients + ${plan.monitors} monitors = ${plan.sent_count} SMS`,
  ...plan.ucs2_characters.map(({ char, suggestion }) =>
    `  ${JSON.stringify(char)} forces UCS-2${suggestion === undefined ? "" : `; use ${JSON.stringify(suggestion)}`}`
  ),
  `  audience sha256 ${plan.audience_sha256}`
]

/** The report's count, then its summary table per day × direction × status. */
export const reportSummary = (result: Report.Result): ReadonlyArray<string> => [
  `${result.rows} messages`,
  ...(result.summary.length === 0 ? [] : table(
    ["day", "dir", "status", "messages", "sms", "recipients", "monitors", "errors"],
    result.summary.map((row) => [row.day, row.direction, row.status, ...[row.messages, row.sms, row.recipients, row.monitors, row.errors].map(String)]),
    [3, 4, 5, 6, 7]
  ))
]
