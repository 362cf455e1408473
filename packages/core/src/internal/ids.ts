/**
 * Identifiers the platform assigns: `profile_uid` and `message_id`, from Effect's `Random` and `Clock`
 * so tests control them.
 */
import { Effect, Random } from "effect"

const word = (random: Random.Random): string =>
  Math.floor(random.nextDoubleUnsafe() * 0x1_0000_0000).toString(16).padStart(8, "0")

/** 32 random hex digits (128 bits). */
export const profileUid: Effect.Effect<string> = Effect.map(
  Effect.service(Random.Random),
  (random) => word(random) + word(random) + word(random) + word(random)
)

/** 12 hex digits of the creation time then 16 random ones: unique, and sorted ids follow creation. */
export const messageId = (createdAt: number): Effect.Effect<string> =>
  Effect.map(
    Effect.service(Random.Random),
    (random) => createdAt.toString(16).padStart(12, "0") + word(random) + word(random)
  )
