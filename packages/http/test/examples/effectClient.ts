import { Client } from "@smsbook/http"
import { Effect } from "effect"

// An Effect service: the typed client mirrors the API definition, errors included.
export const remind = (baseUrl: string, apiKey: string) =>
  Effect.gen(function*() {
    const smsbook = yield* Client.SmsbookClient
    const contact = yield* smsbook.contacts.get({ params: { msisdn: "447400123456" } })
    const sent = yield* smsbook.messages.sendToContact({
      payload: { msisdn: contact.msisdn, message: `Hi ${contact.first_name}, see you at 9`, id: "reminder-42" }
    })
    return sent.message_id
  }).pipe(
    // A refusal is the server's error body: { error: { code, number, status, message } }
    Effect.catch((failure) =>
      "error" in failure ? Effect.succeed(`refused: ${failure.error.code}`) : Effect.fail(failure)
    ),
    Effect.provide(Client.layer({ baseUrl, apiKey }))
  )
