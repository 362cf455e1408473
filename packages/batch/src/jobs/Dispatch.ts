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
  yield* Stream.runForEach(store.stream({ direction: "MT" }), (message) => {
    if (message.type === Message.INDIVIDUAL && message.status === "READY") {
      return Effect.map(Messaging.deliverMessage(message.message_id), () => void processed++)
    }
    if (message.type === Message.GROUP && message.status !== "SENT") {
      return Effect.map(Messaging.processGroupMessage(message.message_id), () => void processed++)
    }
    return Effect.void
  })
  return processed
})
