/**
 * Secrets in store URLs: the password is masked wherever a URL is printed, logged or put in an
 * error, and scrubbed from a driver's messages.
 */

// The userinfo of `scheme://userinfo@host…`: everything up to the last `@`, so a password holding a
// raw `@`, `/`, `?` or `#` (which breaks URL parsing) is still covered whole.
const userinfoPassword = (url: string): { readonly start: number; readonly end: number } | undefined => {
  const scheme = url.indexOf("://")
  if (scheme < 0) return undefined
  const at = url.lastIndexOf("@")
  if (at < scheme) return undefined
  const colon = url.indexOf(":", scheme + 3)
  return colon >= 0 && colon < at ? { start: colon + 1, end: at } : undefined
}

const passwordParameter = /([?&]password=)([^&#]*)/gi

/**
 * The URL with its password replaced by `***` (`postgres://user:***@host/db`), both a `password=`
 * query parameter and the userinfo password — taken up to the last `@`, so a password with a raw
 * `@`, `/`, `?` or `#` is covered whole; everything else is kept as written. Purely textual, so it
 * also masks URLs that do not parse; when unsure (an `@` in another query parameter) it masks too
 * much, never too little. Every URL smsbook prints, logs or puts in an error goes through it.
 */
export const redactUrl = (url: string): string => {
  const masked = url.replace(passwordParameter, (_, prefix: string) => `${prefix}***`)
  const password = userinfoPassword(masked)
  return password === undefined ? masked : `${masked.slice(0, password.start)}***${masked.slice(password.end)}`
}

// The secrets of the URL as they may appear in a driver's message: raw and percent-decoded.
const secretsOf = (url: string): ReadonlyArray<string> => {
  const password = userinfoPassword(url)
  const raw = [
    ...(password === undefined ? [] : [url.slice(password.start, password.end)]),
    ...[...url.matchAll(passwordParameter)].map((match) => match[2] ?? "")
  ]
  const decoded = raw.flatMap((secret) => {
    try {
      return [decodeURIComponent(secret)]
    } catch {
      return []
    }
  })
  return [...raw, ...decoded].filter((secret) => secret !== "")
}

export const scrub = (url: string, text: string): string =>
  secretsOf(url).reduce((scrubbed, secret) => scrubbed.split(secret).join("***"), text)
