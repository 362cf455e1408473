/**
 * The id a send gets when the user gives none (issue 11): a digest of what it says and to whom, so the same send
 * run again within the anti-spam period is recognised — resumed if it was killed, refused as a duplicate
 * (`DUPLICATE_SEND`) if it was finished.
 */
import { createHash } from "node:crypto"

/** `prefix` and 37 hex digits of the SHA-256 of `parts` as JSON: 40 characters, the interface's longest id. */
export const of = (prefix: "bc" | "sd", parts: ReadonlyArray<unknown>): string =>
  `${prefix}-${createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 37)}`

/** Whether `id` is a digest {@link of} made (`bc-` or `sd-` and 37 hex digits). */
export const isDigest = (id: string): boolean => /^(?:bc|sd)-[0-9a-f]{37}$/.test(id)

/** What to do about a digest id found already used: the same text to the same audience sent again. */
export const sentAgainHint =
  "without --id a send is known by its text and audience, and this one was sent within the anti-spam period: " +
  "pass --id ID to send it again on purpose"
