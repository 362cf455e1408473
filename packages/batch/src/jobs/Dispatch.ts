/**
 * The dispatch job without a carrier: the outbox is then the carrier, so messages left PENDING or
 * READY (by the server, by an interrupted run) are handed to it and their parts stay there.
 */
import { Message, MessageStore, Messaging } from "@smsbook/core"
import { Effect, Stream } from "effect"

/** Hands every MT message left READY (individual) or not SENT (group) to the store's carrier; their number. */
export const toOutbox = Effect.gen(function*() {
  const store = yield* MessageStore.MessageStore
  let processed = 0
  yield* Stream.runForEach(store.stream({ direction: "MT" }), (message) =>
    Effect.gen(function*() {
      if (message.type === Message.INDIVIDUAL && message.status === "READY") {
        // Refused as SENT: another process delivered it since the scan read it.
        const delivered = yield* Messaging.deliverMessage(message.message_id).pipe(
          Effect.as(true),
          Effect.catchTag("IllegalTransition", () => Effect.succeed(false))
        )
        if (delivered) processed++
      } else if (message.type === Message.GROUP && message.status !== "SENT") {
        yield* Messaging.processGroupMessage(message.message_id)
        processed++
      }
    }))
  return processed
})
