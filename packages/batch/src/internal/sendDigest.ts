/**
 * The id a send gets when the user gives none (issue 11): a digest of what it says and to whom, so the same send
 * run again within the anti-spam period is recognised — resumed if it was killed, refused if it was finished.
 */
import { type DuplicateSend, InvalidParameter } from "@smsbook/core"
import { createHash } from "node:crypto"

/** `prefix` and 37 hex digits of the SHA-256 of `parts` as JSON: 40 characters, the interface's longest id. */
export const of = (prefix: "bc" | "sd", parts: ReadonlyArray<unknown>): string =>
  `${prefix}-${createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 37)}`

/**
 * A digest id found already used: the same text to the same audience sent again. Refused as bad input (exit 2),
 * saying how to send it again on purpose.
 */
export const sentBefore = (audience: string, message: string) => (duplicate: DuplicateSend): InvalidParameter =>
  new InvalidParameter({
    parameter: "--message",
    value: message,
    reason: `the same text to ${audience} was already sent as message ${duplicate.message_id} at ${duplicate.created_at}, ` +
      "within the anti-spam period: pass --id ID to send it again on purpose"
  })
