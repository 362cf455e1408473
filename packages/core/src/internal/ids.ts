/**
 * Identifiers the platform assigns: `profile_uid` and `message_id`, from Effect's `Random` and `Clock`
 * so tests control them.
 */
import { Effect, Random } from "effect"

const byteHex = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"))

/** 8 random hex digits; by table, as imports make four per new contact. */
const word = (random: Random.Random): string => {
  const n = Math.floor(random.nextDoubleUnsafe() * 0x1_0000_0000)
  return (byteHex[n >>> 24] ?? "") + (byteHex[(n >>> 16) & 255] ?? "") + (byteHex[(n >>> 8) & 255] ?? "") + (byteHex[n & 255] ?? "")
}

/** 32 random hex digits (128 bits) from `random`: for a batch that takes the service once. */
export const profileUidFrom = (random: Random.Random): string => word(random) + word(random) + word(random) + word(random)

/** 32 random hex digits (128 bits). */
export const profileUid: Effect.Effect<string> = Effect.map(Effect.service(Random.Random), profileUidFrom)

/** 12 hex digits of the creation time then 16 random ones: unique, and sorted ids follow creation. */
export const messageId = (createdAt: number): Effect.Effect<string> =>
  Effect.map(
    Effect.service(Random.Random),
    (random) => createdAt.toString(16).padStart(12, "0") + word(random) + word(random)
  )
