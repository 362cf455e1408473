/**
 * The rows of an import as they travel between its threads: each record read (a candidate or a reject, with its
 * line) packed into one flat array per batch, serialised by V8 (structured clone's own format: 3× faster than JSON
 * and UTF-8) into bytes handed over without a copy. Bytes are what a batch weighs while it waits for the main thread:
 * a fifth of the heap its cloned array took, so the worker can read far ahead through the main thread's merges.
 * A batch can also travel as its records, unread, for the main thread to read when it would otherwise wait.
 */
import * as V8 from "node:v8"
import type { ContactBook } from "@smsbook/core"
import * as Errors from "@smsbook/core/Errors"
import * as Msisdn from "@smsbook/core/Msisdn"
import * as ContactRows from "./contactRows.ts"
import type * as CsvRecords from "./csv/records.ts"

/** A record read, blank records left out; `fields` (the record as parsed) only for a reject, else empty. */
export interface Row {
  readonly line: number
  readonly read: Exclude<ContactRows.Read, { readonly _tag: "Blank" }>
  readonly fields: ReadonlyArray<string>
}

/** What the main thread gives the import's worker thread when it starts it. */
export interface Start {
  readonly encoding: string | undefined
  readonly batchSize: number
  /** Whether the main thread swapped libphonenumber-js's regex helper (`phoneRegexCache.ts`): the worker does too. */
  readonly phoneRegexCache: boolean
  /** Batches waiting for the main thread under which the worker sends the next one's records unread (0: never). */
  readonly shareBelow: number
  /** Batches waiting for the main thread, at most: the worker waits for the main thread beyond. */
  readonly window: number
  /** How many batches the main thread has taken: one counter in shared memory, which it adds to. */
  readonly taken: Int32Array
}

/** The rows of records, blank records left out: each read into a candidate or a reject. */
export const read = (records: ReadonlyArray<CsvRecords.Row>, context: ContactRows.Context): Array<Row> => {
  const rows: Array<Row> = []
  for (const record of records) {
    const read = ContactRows.read(record.fields, context)
    if (read._tag !== "Blank") rows.push({ line: record.line, read, fields: read._tag === "Reject" ? record.fields : [] })
  }
  return rows
}

/** A batch of rows, packed. */
type Packed = Array<string | number>

const rules: ReadonlyArray<Msisdn.Rule> = ["international", "national", "trunk-prefix-dropped", "calling-code-digits"]

const reasons: ReadonlyArray<ContactRows.Reason> = [
  ...Errors.msisdnProblems.filter((problem) => problem !== "empty"),
  ...ContactRows.rowReasons
]

const candidateTag = 0
const rejectTag = 1
/** A candidate whose status cell says it opted out: its own tag, so the other rows carry no flag. */
const optOutTag = 2
/** A reject that keeps its number's opt-out: its own tag too, followed by the number. */
const rejectOptOutTag = 3
/** Added to a candidate's tag when a starting state follows its tags (an export's status or monitoring). */
const stateFlag = 4

const startingStatuses: ReadonlyArray<ContactBook.StartingStatus | undefined> = [undefined, "INVITED", "CONFIRMED", "SUBSCRIBED"]
const monitorings: ReadonlyArray<boolean | undefined> = [undefined, false, true]

/**
 * Packs rows: a candidate as `0, line, msisdn, country, phone, first, last, rule, notes…, tags…` (lists as their
 * length then their items, rule and notes as indexes; `2` instead of `0` when it opts out; 4 more with its starting
 * status and monitoring after its tags, as two indexes), a reject as `1, line, reason, message, fields…`
 * (`3, line, reason, message, msisdn, fields…` when it keeps its opt-out).
 */
const pack = (rows: ReadonlyArray<Row>): Packed => {
  const out: Packed = []
  for (const { fields, line, read } of rows) {
    if (read._tag === "Candidate") {
      const { candidate } = read
      const stated = candidate.status !== undefined || candidate.monitoring !== undefined
      out.push(
        (read.optOut ? optOutTag : candidateTag) + (stated ? stateFlag : 0),
        line,
        candidate.msisdn,
        candidate.country_code,
        candidate.phone_number,
        candidate.first_name,
        candidate.last_name,
        rules.indexOf(read.rule),
        read.notes.length
      )
      for (const note of read.notes) out.push(ContactRows.notes.indexOf(note))
      out.push(candidate.tags.length)
      for (const tag of candidate.tags) out.push(tag)
      if (stated) out.push(startingStatuses.indexOf(candidate.status), monitorings.indexOf(candidate.monitoring))
    } else {
      if (read.optOut === undefined) out.push(rejectTag, line, reasons.indexOf(read.reason), read.message)
      else out.push(rejectOptOutTag, line, reasons.indexOf(read.reason), read.message, read.optOut)
      out.push(fields.length)
      for (const field of fields) out.push(field)
    }
  }
  return out
}

/** A packed batch that does not unpack: never sent by {@link encode}, so a bug, not bad input. */
export class Corrupt extends Error {}

/** Unpacks what {@link pack} packed, into equal rows. */
const unpack = (packed: ReadonlyArray<unknown>): Array<Row> => {
  let at = 0
  const text = (): string => {
    const value = packed[at++]
    if (typeof value !== "string") throw new Corrupt(`a packed row holds ${String(value)} at ${at - 1}, not text`)
    return value
  }
  const count = (): number => {
    const value = packed[at++]
    if (typeof value !== "number") throw new Corrupt(`a packed row holds ${String(value)} at ${at - 1}, not a number`)
    return value
  }
  const number = (): Msisdn.Msisdn => {
    const value = text()
    if (!Msisdn.isMsisdn(value)) throw new Corrupt(`a packed row holds ${value}, not an MSISDN`)
    return value
  }
  const item = <A>(list: ReadonlyArray<A>): A => {
    const value = list[count()]
    if (value === undefined) throw new Corrupt(`a packed row holds an unknown index at ${at - 1}`)
    return value
  }
  /** An item that may be absent: index 0 of `list` is `undefined`. */
  const optional = <A>(list: ReadonlyArray<A | undefined>): A | undefined => {
    const index = count()
    if (!Number.isInteger(index) || index < 0 || index >= list.length) throw new Corrupt(`a packed row holds an unknown index at ${at - 1}`)
    return list[index]
  }
  const rows: Array<Row> = []
  while (at < packed.length) {
    const packedTag = count()
    const line = count()
    const stated = packedTag >= stateFlag
    const tag = stated ? packedTag - stateFlag : packedTag
    if (tag === candidateTag || tag === optOutTag) {
      const msisdn = number()
      const country_code = text()
      const phone_number = text()
      const first_name = text()
      const last_name = text()
      const rule = item(rules)
      const notes: Array<ContactRows.Note> = []
      for (let n = count(); n > 0; n--) notes.push(item(ContactRows.notes))
      const tags: Array<string> = []
      for (let n = count(); n > 0; n--) tags.push(text())
      const status = stated ? optional(startingStatuses) : undefined
      const monitoring = stated ? optional(monitorings) : undefined
      rows.push({
        line,
        fields: [],
        read: {
          _tag: "Candidate",
          rule,
          notes,
          optOut: tag === optOutTag,
          candidate: stated
            ? { msisdn, country_code, phone_number, first_name, last_name, tags, status, monitoring }
            : { msisdn, country_code, phone_number, first_name, last_name, tags }
        }
      })
    } else {
      const reason = item(reasons)
      const message = text()
      const optOut = tag === rejectOptOutTag ? number() : undefined
      const fields: Array<string> = []
      for (let n = count(); n > 0; n--) fields.push(text())
      rows.push({ line, fields, read: optOut === undefined ? { _tag: "Reject", reason, message } : { _tag: "Reject", reason, message, optOut } })
    }
  }
  return rows
}

/** Rows as the bytes of a batch. */
export const encode = (rows: ReadonlyArray<Row>): Uint8Array => V8.serialize(pack(rows))

/** The rows of a batch's bytes, as {@link encode} was given them. */
export const decode = (bytes: Uint8Array): Array<Row> => {
  const packed: unknown = V8.deserialize(bytes)
  if (!Array.isArray(packed)) throw new Corrupt("the import's worker sent rows that are not packed rows")
  return unpack(packed)
}

/** Records, unread, as the bytes of a batch: `line, field count, fields…` each. */
export const encodeRecords = (records: ReadonlyArray<CsvRecords.Row>): Uint8Array => {
  const packed: Packed = []
  for (const { fields, line } of records) {
    packed.push(line, fields.length)
    for (const field of fields) packed.push(field)
  }
  return V8.serialize(packed)
}

/** The records of a batch's bytes, as {@link encodeRecords} was given them. */
export const decodeRecords = (bytes: Uint8Array): Array<CsvRecords.Row> => {
  const packed: unknown = V8.deserialize(bytes)
  if (!Array.isArray(packed)) throw new Corrupt("the import's worker sent records that are not packed records")
  const records: Array<CsvRecords.Row> = []
  let at = 0
  while (at < packed.length) {
    const line: unknown = packed[at]
    const count: unknown = packed[at + 1]
    if (typeof line !== "number" || typeof count !== "number" || !Number.isInteger(count) || count < 0) {
      throw new Corrupt(`packed records hold no line and count at ${at}`)
    }
    const fields: Array<string> = []
    for (let i = at + 2; i < at + 2 + count; i++) {
      const field: unknown = packed[i]
      if (typeof field !== "string") throw new Corrupt(`packed records hold fewer than ${count} fields at ${at}`)
      fields.push(field)
    }
    records.push({ line, fields })
    at += 2 + count
  }
  return records
}
