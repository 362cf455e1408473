/**
 * What a broadcast finds under its id before it sends: an unfinished group message of the same text and tags, which it
 * resumes, or a message within the spam period, which makes it a duplicate. The send and its dry run both ask here.
 */
import { Clock, Effect, Option } from "effect"
import { Account } from "./Account.ts"
import { DuplicateSend, InvalidField } from "./Errors.ts"
import * as Message from "./Message.ts"
import { MessageStore } from "./MessageStore.ts"

/** Tags name groups, matched without regard to case or order: `news,vip` is `VIP,news`. */
const groups = (tags: ReadonlyArray<string>) => tags.map((tag) => tag.toLowerCase()).sort().join("\n")

/**
 * The unfinished group message under `id` that a broadcast of `message` to `tags` resumes, if any. One of another text
 * or tags under that id is refused (`InvalidField` on `id`): resuming it would send what was not asked for.
 */
export const unfinished = Effect.fnUntraced(function*(id: string | undefined, message: string, tags: ReadonlyArray<string>) {
  if (id === undefined) return Option.none<Message.Stored>()
  const previous = yield* (yield* MessageStore).findById(id)
  if (Option.isNone(previous) || previous.value.type !== Message.GROUP || previous.value.status === "SENT") return Option.none<Message.Stored>()
  const found = previous.value
  if (found.message !== message || groups(found.tags) !== groups(tags)) {
    return yield* new InvalidField({
      field: "id",
      value: id,
      reason: `belongs to unfinished message ${found.message_id} with another text or tags; resume it with the same ones`
    })
  }
  return Option.some(found)
})

/**
 * Refuses `id` as the store's anti-spam check would refuse a new message under it now (`DuplicateSend`), reading only:
 * for a preview. The send itself relies on the store's check, atomic with its insert.
 */
export const checkNotDuplicate = Effect.fnUntraced(function*(id: string) {
  const account = yield* Account
  const since = (yield* Clock.currentTimeMillis) - account.spam_period_seconds * 1000
  const latest = yield* (yield* MessageStore).findById(id)
  if (Option.isSome(latest) && latest.value.created_at >= since) {
    return yield* new DuplicateSend({
      id,
      message_id: latest.value.message_id,
      created_at: new Date(latest.value.created_at).toISOString()
    })
  }
})
