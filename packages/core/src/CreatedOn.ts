/**
 * created_on: when a message was created, written `YYYY-MM-DD HH:MM:SS` on the wall clock of the account's
 * IANA time zone (default UTC). Formatted per row of million-row reports, so zone offsets are cached per hour.
 */
import { DateTime, Result } from "effect"
import { InvalidCreatedOn, InvalidField } from "./Errors.ts"
import { civilFromDays, daysFromCivil, daysInMonth, pad2, year4 } from "./internal/calendar.ts"

const SECOND = 1000
const HOUR = 3_600_000
const DAY = 86_400_000
/** Hour buckets kept per zone before its cache is dropped (about 7.5 years of distinct hours). */
const MAX_CACHED_HOURS = 65_536

/** `YYYY-MM-DD HH:MM:SS` of a wall-clock time held as milliseconds since 1970-01-01T00:00 (ignoring zones). */
const formatWall = (wallMillis: number): string => {
  const wallSeconds = Math.floor(wallMillis / SECOND)
  const days = Math.floor(wallSeconds / 86_400)
  const secondOfDay = wallSeconds - days * 86_400
  const { day, month, year } = civilFromDays(days)
  const hour = Math.floor(secondOfDay / 3600)
  const minute = Math.floor((secondOfDay % 3600) / 60)
  return `${year4(year)}-${pad2(month)}-${pad2(day)} ${pad2(hour)}:${pad2(minute)}:${pad2(secondOfDay % 60)}`
}

// ---------------------------------------------------------------------------------------------
// zones
// ---------------------------------------------------------------------------------------------

/** A validated IANA time zone, with the offset lookup formatting and parsing run on. */
export interface Zone {
  /** The IANA name as given, spelled as the tz database does when they differ only by case (`Europe/London`). */
  readonly id: string
  /**
   * Milliseconds to add to a UTC instant to get the zone's wall clock at that instant (positive east of
   * Greenwich). Exact to the second, historical offsets included.
   */
  readonly offsetAt: (epochMillis: number) => number
}

/** UTC, the default zone of an account. */
export const utc: Zone = { id: "UTC", offsetAt: () => 0 }

interface Transition {
  /** The first instant (ms) at the `after` offset. */
  readonly at: number
  readonly before: number
  readonly after: number
}

const INTL_OPTIONS: Intl.DateTimeFormatOptions = {
  era: "short",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
  hourCycle: "h23"
}

/**
 * The offset lookup of a zone: offsets come from `Intl` once per hour of UTC time and are then cached; each hour
 * bucket holds one offset, or the one transition inside it (found to the second by bisection; tz transitions fall
 * on whole seconds). Two transitions within one hour do not occur in the tz database.
 */
const makeOffsetLookup = (intl: Intl.DateTimeFormat): (epochMillis: number) => number => {
  const cache = new Map<number, number | Transition>()
  let lastHour = Number.NaN
  let lastEntry: number | Transition = 0

  /** The offset at a whole-second instant, read from `Intl`'s wall clock. */
  const intlOffset = (millis: number): number => {
    // Every numeric part this format asks for is present; the era is "BC" (or "B", narrow) before year 1.
    const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {}
    for (const part of intl.formatToParts(millis)) parts[part.type] = part.value
    const field = (type: Intl.DateTimeFormatPartTypes): number => Number(parts[type])
    const beforeChrist = parts.era === "BC" || parts.era === "B"
    const year = field("year")
    const wall = daysFromCivil(beforeChrist ? 1 - year : year, field("month"), field("day")) * DAY +
      ((field("hour") * 60 + field("minute")) * 60 + field("second")) * SECOND
    return wall - millis
  }

  const computeBucket = (hour: number): number | Transition => {
    const start = hour * HOUR
    const last = start + HOUR - SECOND
    const before = intlOffset(start)
    const after = intlOffset(last)
    if (before === after) return before
    let low = start
    let high = last
    while (high - low > SECOND) {
      const middle = low + Math.floor((high - low) / (2 * SECOND)) * SECOND
      if (intlOffset(middle) === before) low = middle
      else high = middle
    }
    return { at: high, before, after }
  }

  const offsetAt = (epochMillis: number): number => {
    const hour = Math.floor(epochMillis / HOUR)
    let entry: number | Transition
    if (hour === lastHour) {
      entry = lastEntry
    } else {
      const cached = cache.get(hour)
      if (cached === undefined) {
        entry = computeBucket(hour)
        if (cache.size >= MAX_CACHED_HOURS) cache.clear()
        cache.set(hour, entry)
      } else {
        entry = cached
      }
      lastHour = hour
      lastEntry = entry
    }
    return typeof entry === "number" ? entry : epochMillis < entry.at ? entry.before : entry.after
  }

  return offsetAt
}

/** Zones by the name they were asked for. */
const zones = new Map<string, Zone>()
/** Offset lookups (and so their caches) by the tz database's canonical name, shared by aliases. */
const lookups = new Map<string, (epochMillis: number) => number>()

/**
 * The IANA time zone of that name (case-insensitive, aliases allowed: `Asia/Calcutta`), or why not.
 *
 * Invariant: only names the runtime's tz database knows; fixed offsets (`+01:00`) are refused because an
 * account's zone must follow its country's daylight-saving rules — use `Etc/GMT-1` for a fixed UTC+1.
 * Zones are made once per name; aliases (`Asia/Kolkata`, `Asia/Calcutta`) share one offset cache.
 */
export const zone = (name: string): Result.Result<Zone, InvalidField> => {
  const known = zones.get(name)
  if (known !== undefined) return Result.succeed(known)
  const fail = (reason: string) => Result.fail(new InvalidField({ field: "time_zone", value: name, reason }))
  if (name.trim() === "") return fail("a time zone is required, e.g. UTC or Europe/London")
  if (/^[+\-\d]/.test(name)) {
    return fail("a fixed offset is not an IANA time zone; use a zone name such as Europe/London (or Etc/GMT-1 for UTC+1)")
  }
  let intl: Intl.DateTimeFormat
  try {
    intl = new Intl.DateTimeFormat("en-US", { ...INTL_OPTIONS, timeZone: name })
  } catch {
    return fail("unknown IANA time zone, expected a name such as UTC, Europe/London or America/New_York")
  }
  const canonical = intl.resolvedOptions().timeZone
  const offsetAt = canonical === "UTC" ? utc.offsetAt : lookups.get(canonical) ?? makeOffsetLookup(intl)
  lookups.set(canonical, offsetAt)
  const made: Zone = { id: canonical.toLowerCase() === name.toLowerCase() ? canonical : name, offsetAt }
  zones.set(name, made)
  return Result.succeed(made)
}

/** A zone given as a value or a name; a name is looked up once and then served from the shared table. */
const resolve = (timeZone: Zone | string): Result.Result<Zone, InvalidField> =>
  typeof timeZone === "string" ? zone(timeZone) : Result.succeed(timeZone)

// ---------------------------------------------------------------------------------------------
// format and parse
// ---------------------------------------------------------------------------------------------

/**
 * Formats an instant as `YYYY-MM-DD HH:MM:SS` on the zone's wall clock (milliseconds are truncated).
 *
 * Invariant: the text is what a clock in that zone showed at that instant, historical offsets and DST
 * included, and {@link parse} reads it back to the same second except in a repeated (fall-back) hour, where
 * it reads the earlier of the two instants. Cost per call: a cached offset lookup and integer arithmetic.
 * A zone name must be valid (check it at the edge with {@link zone}): an unknown name is a programming
 * error and throws, like `DateTime.makeZonedUnsafe`.
 */
export const format = (d: DateTime.Utc, timeZone: Zone | string): string =>
  formatMillis(DateTime.toEpochMillis(d), typeof timeZone === "string" ? Result.getOrThrow(zone(timeZone)) : timeZone)

/** {@link format} of epoch milliseconds in a resolved zone: the per-row path of reports, no allocation but the text. */
export const formatMillis = (millis: number, timeZone: Zone): string => formatWall(millis + timeZone.offsetAt(millis))

const SHAPE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/

/**
 * Parses `YYYY-MM-DD HH:MM:SS` (exactly that shape) as a wall-clock time in the zone.
 *
 * Invariant: success means the date and time exist — month 01–12, a real day of that month, 00:00:00–23:59:59
 * (a leap second 60 is refused) — and the wall time occurs in the zone. A time skipped by a forward DST
 * change (the gap) is refused, since no clock showed it; a time shown twice (the fall-back overlap) is the
 * earlier instant, as `Temporal`'s and `DateTime`'s "compatible" rule. An unknown zone name is refused.
 */
export const parse = (text: string, timeZone: Zone | string): Result.Result<DateTime.Utc, InvalidCreatedOn> => {
  const fail = (reason: string) => Result.fail(new InvalidCreatedOn({ value: text, reason }))
  const resolved = resolve(timeZone)
  if (Result.isFailure(resolved)) return fail(`unknown time zone ${JSON.stringify(resolved.failure.value)}`)
  const match = SHAPE.exec(text)
  if (match === null) return fail("expected exactly YYYY-MM-DD HH:MM:SS, e.g. 2026-11-21 10:15:00")
  const [, yearText = "", monthText = "", dayText = "", hourText = "", minuteText = "", secondText = ""] = match
  const year = Number(yearText)
  const month = Number(monthText)
  const day = Number(dayText)
  const hour = Number(hourText)
  const minute = Number(minuteText)
  const second = Number(secondText)
  if (month < 1 || month > 12) return fail(`no such month: ${monthText} (months run 01–12)`)
  if (day < 1 || day > daysInMonth(year, month)) return fail(`no such day: ${yearText}-${monthText}-${dayText}`)
  const time = `${hourText}:${minuteText}:${secondText}`
  if (hour > 23) return fail(`no such time: ${time} (hours run 00–23)`)
  if (minute > 59) return fail(`no such time: ${time} (minutes run 00–59)`)
  if (second === 60) return fail(`leap second ${time} is not accepted (seconds run 00–59)`)
  if (second > 59) return fail(`no such time: ${time} (seconds run 00–59)`)
  const wall = daysFromCivil(year, month, day) * DAY + ((hour * 60 + minute) * 60 + second) * SECOND
  const instant = earliestInstant(resolved.success, wall)
  if (instant === undefined) {
    return fail(`${text} does not exist in ${resolved.success.id}: the clocks skipped it (daylight-saving change)`)
  }
  return Result.succeed(DateTime.makeUnsafe(instant))
}

/**
 * The earliest instant at which the zone's clock shows `wall`, or undefined in a gap. Candidates come from the
 * offsets a day either side and at the wall time itself; a candidate counts when the zone really has that
 * offset at that instant.
 */
const earliestInstant = (zone: Zone, wall: number): number | undefined => {
  let best: number | undefined
  for (const offset of [zone.offsetAt(wall - DAY), zone.offsetAt(wall), zone.offsetAt(wall + DAY)]) {
    const candidate = wall - offset
    if (zone.offsetAt(candidate) === offset && (best === undefined || candidate < best)) best = candidate
  }
  return best
}
