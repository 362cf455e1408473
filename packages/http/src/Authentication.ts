/**
 * The server side of `Api.Authorization`: a bearer key checked against the `ApiKeyStore`, or
 * (`--no-auth`, loopback only) every request let through.
 */
import * as ApiKeyStore from "@smsbook/store/ApiKeyStore"
import { Effect, Layer, Option, Redacted } from "effect"
import { Authorization } from "./Api.ts"
import * as ErrorBody from "./ErrorBody.ts"

const unauthorized = (message: string) => Effect.fail(ErrorBody.http("Unauthorized", message))

/** Requests need `Authorization: Bearer <key>` with a live key of the store. */
export const layer: Layer.Layer<Authorization, never, ApiKeyStore.ApiKeyStore> = Layer.effect(
  Authorization,
  Effect.map(Effect.service(ApiKeyStore.ApiKeyStore), (keys) =>
    Authorization.of({
      bearer: (httpEffect, { credential }) =>
        Effect.gen(function*() {
          const secret = Redacted.value(credential)
          if (secret === "") return yield* unauthorized("an API key is required: send Authorization: Bearer <key>")
          // A store that fails here is a defect of this request: answered 500 STORE_FAILURE by the server.
          const key = yield* Effect.orDie(keys.verify(secret))
          if (Option.isNone(key)) return yield* unauthorized("the API key is unknown or revoked")
          return yield* httpEffect
        })
    }))
)

/** Every request is let through (`--no-auth`; the server allows it only on a loopback host). */
export const layerOpen: Layer.Layer<Authorization> = Layer.succeed(
  Authorization,
  Authorization.of({ bearer: (httpEffect) => httpEffect })
)
