/**
 * A SQLite book whose write lock another process holds (a nightly import): a write of the server waits for it, and
 * the server's reads (`/health` included) answer meanwhile instead of queueing behind that write.
 */
import { describe, expect, it } from "vitest"
import { withLockedBook } from "./running.ts"
import * as Samples from "./samples.ts"

/** The status of `response`, or "waiting" if it has not answered within `ms` (a generous bound: reads take ~1 ms). */
const within = (response: Promise<Response>, ms: number): Promise<number | "waiting"> =>
  Promise.race([
    response.then((answer) => answer.status),
    new Promise<"waiting">((resolve) => setTimeout(() => resolve("waiting"), ms))
  ])

describe("a write waiting for another process's write lock", () => {
  it("holds up no read: /health, a contact and the message list answer while it waits", () =>
    withLockedBook("60 seconds", async (server, holder) => {
      const send = fetch(`${server.url}/messages/send_to_contact`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ msisdn: Samples.msisdn, message: "queued behind the import" })
      })
      // The send is waiting for the lock (it cannot have it: the holder keeps it until the reads are answered).
      expect(await within(send, 200)).toBe("waiting")
      const reads = await Promise.all(
        ["/health", `/contacts/${Samples.msisdn}`, "/messages"].map((path) => within(fetch(server.url + path), 5000))
      )
      expect(reads).toEqual([200, 404, 200])
      holder.exec("COMMIT")
      expect((await send).status).toBe(201)
    }), 30_000)
})
