/**
 * Proleptic Gregorian calendar arithmetic, exact for every year (unlike `Date.UTC` below 100),
 * shared by the HTTP-date and created_on parsers and formatters.
 */

const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

export const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31

/** Days since 1970-01-01 of a civil date (H. Hinnant's `days_from_civil`). */
export const daysFromCivil = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146_097 + dayOfEra - 719_468
}

export interface Civil {
  readonly year: number
  readonly month: number
  readonly day: number
}

/** The civil date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`). */
export const civilFromDays = (days: number): Civil => {
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const mp = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day }
}

export const pad2 = (n: number): string => (n < 10 ? "0" : "") + n

/** A year as four digits (more, or a sign, outside 0000–9999). */
export const year4 = (year: number): string => {
  if (year >= 1000 && year <= 9999) return String(year)
  return year < 0 ? "-" + String(-year).padStart(4, "0") : String(year).padStart(4, "0")
}
