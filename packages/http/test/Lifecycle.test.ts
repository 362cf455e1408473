/**
 * The server as a process: SIGTERM mid-load loses no accepted request (each 201 is in the store,
 * an in-flight upload finishes), the store is closed after; slow clients are cut off; a request cut off has its
 * access-log line too.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { Agent, request } from "node:http"
import { connect } from "node:net"
import { DatabaseSync } from "node:sqlite"
import { MessageStore } from "@smsbook/core"
import * as Store from "@smsbook/store/Store"
import { Effect, ManagedRuntime } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import * as Stores from "./stores.ts"

const fixture = new URL("./fixtures/serve.ts", import.meta.url).pathname

interface Child {
  readonly process: ChildProcess
  readonly url: string
  readonly exited: Promise<number | null>
  readonly stderr: () => string
}

const children: Array<ChildProcess> = []
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL")
})

const launch = (args: ReadonlyArray<string>): Promise<Child> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fixture, ...args], { stdio: ["ignore", "pipe", "pipe"] })
    children.push(child)
    let stderr = ""
    child.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)))
    child.stdout?.once("data", (chunk: Buffer) =>
      resolve({ process: child, url: chunk.toString().trim(), exited, stderr: () => stderr }))
    child.on("exit", (code) => reject(new Error(`server exited ${code}: ${stderr}`)))
  })

/** A POST whose body is sent in two halves, the second when `release` resolves. */
const trickle = (url: string, path: string, body: string, release: Promise<void>) =>
  new Promise<{ readonly status: number; readonly body: string }>((resolve, reject) => {
    const req = request(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) }
    }, (response) => {
      let text = ""
      response.on("data", (chunk: Buffer) => void (text += chunk.toString()))
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }))
    })
    req.on("error", reject)
    const half = Math.floor(body.length / 2)
    req.write(body.slice(0, half))
    void release.then(() => req.end(body.slice(half)))
  })

/** Writes the start of a request and never the rest; what the server answered until it closed the connection. */
const unfinished = (url: string, start: string) =>
  new Promise<string>((resolve) => {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname, () => socket.write(start))
    let text = ""
    socket.on("data", (chunk) => void (text += chunk.toString()))
    socket.on("close", () => resolve(text))
  })

/** A connection that writes `text` once connected; what it read until closed, and how it ended (`end` or an error code). */
const connection = (url: string, text: string) => {
  const { hostname, port } = new URL(url)
  const socket = connect(Number(port), hostname)
  let read = ""
  let ending = "end"
  socket.on("data", (chunk) => void (read += chunk.toString()))
  socket.on("error", (error: Error & { readonly code?: string }) => void (ending = error.code ?? error.message))
  const written = new Promise<void>((resolve) => socket.once("connect", () => text === "" ? resolve() : socket.write(text, () => resolve())))
  const closed = new Promise<{ readonly read: string; readonly ending: string }>((resolve) => socket.on("close", () => resolve({ read, ending })))
  return { written, closed }
}

/** The JSON body of a raw HTTP answer. */
const bodyOf = (answer: string): unknown => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))

/** The access-log lines of a server that has exited, once its stderr (written in batches) is closed. */
const accessLines = async (server: Child): Promise<Array<{ readonly [field: string]: unknown }>> => {
  const stderr = server.process.stderr
  if (stderr !== null && !stderr.closed) await new Promise((resolve) => stderr.once("close", resolve))
  return server.stderr().split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as { readonly [field: string]: unknown })
}

/** Whether a fresh connection (no pooled keep-alive one) is refused within 5 s. */
const refusesNewConnections = async (url: string): Promise<boolean> => {
  const { hostname, port } = new URL(url)
  for (let attempt = 0; attempt < 50; attempt++) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), hostname)
      socket.once("connect", () => {
        socket.destroy()
        resolve(false)
      })
      socket.once("error", () => resolve(true))
    })
    if (refused) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}

describe("the server process", () => {
  it("on SIGTERM stops accepting, finishes in-flight requests, loses no accepted one, closes the store", async () => {
    const store = await Stores.fresh("sqlite")
    const server = await launch([store.url])
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    const slow = trickle(server.url, "/messages/send_to_contact", JSON.stringify({ msisdn: "447400123456", message: "in flight", id: "slow" }), released)
    const load = Array.from({ length: 200 }, (_, i) =>
      fetch(`${server.url}/messages/send_to_contact`, {
        method: "POST",
        body: JSON.stringify({ msisdn: "447400123456", message: `load ${i}`, id: `load-${i}` })
      }).then(async (response) => ({ status: response.status, json: (await response.json()) as { readonly message_id?: string } }), () => undefined))
    await new Promise((resolve) => setTimeout(resolve, 100))
    server.process.kill("SIGTERM")
    // the server soon accepts no new connection, while the upload in progress is still served
    expect(await refusesNewConnections(server.url)).toBe(true)
    release()
    const finished = await slow
    expect(finished.status).toBe(201)
    const answers = await Promise.all(load)
    expect([0, 130, 143]).toContain(await server.exited)
    const accepted = answers.filter((answer) => answer?.status === 201).map((answer) => answer?.json.message_id)
    expect(accepted.length).toBeGreaterThan(0)
    expect(answers.every((answer) => answer === undefined || answer.status === 201)).toBe(true)
    // every accepted send is in the store, which the server closed cleanly (it opens again)
    const book = ManagedRuntime.make(Store.layer(store.url))
    const stored = await book.runPromise(Effect.flatMap(Effect.service(MessageStore.MessageStore), (messages) => messages.list({ limit: 1000, start: 0 })))
    await book.dispose()
    const ids = new Set(stored.map((message) => message.message_id))
    for (const id of [...accepted, JSON.parse(finished.body).message_id]) expect(ids.has(id)).toBe(true)
    expect(stored).toHaveLength(accepted.length + 1)
    // the access log, written in batches, still has a line for every send answered before the exit
    const logged = await accessLines(server)
    expect(logged.filter((line) => line.path === "/messages/send_to_contact" && line.status === 201)).toHaveLength(accepted.length + 1)
    await store.drop()
  }, 30_000)

  it("while draining, answers Connection: close and exits once they are out, not after the keep-alive timeout", async () => {
    const server = await launch(["memory:"])
    const agent = new Agent({ keepAlive: true, maxSockets: 2 })
    const send = (body: string, release: Promise<void>) =>
      new Promise<{ readonly status: number; readonly connection: string | undefined; readonly at: number }>((resolve, reject) => {
        const req = request(`${server.url}/messages/send_to_contact`, {
          method: "POST",
          agent,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) }
        }, (response) => {
          response.resume()
          response.on("end", () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, at: performance.now() }))
        })
        req.on("error", reject)
        req.write(body.slice(0, 10))
        void release.then(() => req.end(body.slice(10)))
      })
    // One keep-alive connection that answered a request before the stop, one with a request under way during it.
    const before = await send(JSON.stringify({ msisdn: "447400123456", message: "before" }), Promise.resolve())
    expect(before).toMatchObject({ status: 201, connection: "keep-alive" })
    let release = () => {}
    const during = send(JSON.stringify({ msisdn: "447400123456", message: "during" }), new Promise<void>((resolve) => (release = resolve)))
    await new Promise((resolve) => setTimeout(resolve, 100))
    server.process.kill("SIGTERM")
    await new Promise((resolve) => setTimeout(resolve, 200))
    release()
    const answered = await during
    expect(answered).toMatchObject({ status: 201, connection: "close" })
    await server.exited
    // The keep-alive timeout is 5 s: the process is gone well before it would have closed the connection.
    expect(performance.now() - answered.at).toBeLessThan(2500)
    agent.destroy()
  }, 20_000)

  it("on SIGTERM answers the requests of new connections still queued by the kernel, with Connection: close", async () => {
    const store = await Stores.fresh("sqlite")
    const server = await launch([store.url])
    // Stopped, the server takes no connection: the kernel queues them, with the requests they send. Node takes one a
    // turn of its event loop, and the stop closed the listener at once, which reset those still queued.
    server.process.kill("SIGSTOP")
    const sends = Array.from({ length: 5 }, (_, i) => {
      const body = JSON.stringify({ msisdn: "447400123456", message: `queued ${i}`, id: `queued-${i}` })
      return connection(
        server.url,
        `POST /messages/send_to_contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
      )
    })
    await Promise.all(sends.map((send) => send.written))
    server.process.kill("SIGTERM")
    server.process.kill("SIGCONT")
    const answers = await Promise.all(sends.map((send) => send.closed))
    for (const answer of answers) {
      expect(answer.read).toMatch(/^HTTP\/1\.1 201 [^]*\r\nConnection: close\r\n/)
      expect(answer.ending).toBe("end")
    }
    expect([0, 130, 143]).toContain(await server.exited)
    const book = ManagedRuntime.make(Store.layer(store.url))
    const stored = await book.runPromise(Effect.flatMap(Effect.service(MessageStore.MessageStore), (messages) => messages.list({ limit: 100, start: 0 })))
    await book.dispose()
    expect(stored.map((message) => message.id).sort()).toEqual(["queued-0", "queued-1", "queued-2", "queued-3", "queued-4"])
    await store.drop()
  }, 30_000)

  it("on SIGTERM closes a connection that has sent nothing: it does not hold the stop for the drain", async () => {
    const server = await launch(["memory:"])
    const silent = connection(server.url, "")
    await silent.written
    const stopped = performance.now()
    server.process.kill("SIGTERM")
    expect(await silent.closed).toEqual({ read: "", ending: "end" })
    await server.exited
    // The drain is 10 s; Node counted the connection as a request under way, so the process waited all of it.
    expect(performance.now() - stopped).toBeLessThan(5000)
  }, 20_000)

  it("cuts off a client that never finishes its headers, with an access-log line", async () => {
    const server = await launch(["memory:", "500"])
    const answer = await unfinished(server.url, "GET /health HTTP/1.1\r\nHost: x\r\n")
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
    expect(bodyOf(answer)).toMatchObject({ error: { code: "REQUEST_TIMEOUT", status: 408 } })
    server.process.kill("SIGTERM")
    await server.exited
    expect(await accessLines(server)).toContainEqual(expect.objectContaining({ status: 408, remote: "127.0.0.1", refused: "ERR_HTTP_REQUEST_TIMEOUT" }))
  }, 15_000)

  it("cuts off a body that never finishes: the client is answered 408 in JSON, and the access log says 408", async () => {
    const server = await launch(["memory:", "500"])
    const answer = await unfinished(
      server.url,
      "POST /messages/send_to_contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"msisdn\""
    )
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
    expect(bodyOf(answer)).toMatchObject({ error: { code: "REQUEST_TIMEOUT", number: 3005 } })
    // The client hears Node's answer before the app has ended that request (and logged it): wait for its line.
    for (const end = Date.now() + 10_000; !server.stderr().includes('"status":408') && Date.now() < end;) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    server.process.kill("SIGTERM")
    await server.exited
    expect(await accessLines(server)).toContainEqual(expect.objectContaining({ path: "/messages/send_to_contact", status: 408, remote: "127.0.0.1" }))
  }, 15_000)

  it("answers a keep-alive connection's later request that times out 408 too, and requests Node cannot read in JSON", async () => {
    const server = await launch(["memory:", "500"])
    const later = await unfinished(
      server.url,
      "GET /health HTTP/1.1\r\nHost: x\r\n\r\nPOST /messages/send_to_contact HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"
    )
    expect(later).toMatch(/^HTTP\/1\.1 200[^]*HTTP\/1\.1 408[^]*REQUEST_TIMEOUT/)
    const garbage = await unfinished(server.url, "NOT HTTP AT ALL\r\n\r\n")
    expect(garbage).toMatch(/^HTTP\/1\.1 400/)
    expect(bodyOf(garbage)).toMatchObject({ error: { code: "MALFORMED_REQUEST", number: 3009, status: 400, details: {} } })
    const big = await unfinished(server.url, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`)
    expect(big).toMatch(/^HTTP\/1\.1 431/)
    expect(bodyOf(big)).toMatchObject({ error: { code: "HEADERS_TOO_LARGE", number: 3008, status: 431 } })
    server.process.kill("SIGTERM")
    await server.exited
    // One line a request: the later request's 408 by the app (it held that request), the other two by the listener.
    const lines = await accessLines(server)
    expect(lines.filter((line) => "refused" in line).map((line) => line.status).sort()).toEqual([400, 431])
    expect(lines.filter((line) => line.status === 408)).toEqual([expect.objectContaining({ path: "/messages/send_to_contact" })])
  }, 15_000)

  it("logs a request cut off in flight: 499 for a client that left, 503 for one the stop cut after the drain", async () => {
    const store = await Stores.fresh("sqlite")
    const server = await launch([store.url])
    // Another connection holds the book's write lock: every send waits for it.
    const holder = new DatabaseSync(store.url)
    holder.exec("BEGIN IMMEDIATE")
    const send = (id: string, signal?: AbortSignal) =>
      fetch(`${server.url}/messages/send_to_contact`, { method: "POST", body: JSON.stringify({ msisdn: "447400123456", message: "hi", id }), ...(signal === undefined ? {} : { signal }) })
        .then((response) => response.status, () => 0)
    const left = send("left", AbortSignal.timeout(300))
    expect(await left).toBe(0)
    // A send still waiting when the stop's drain (10 s) ends is cut off, answered 503 with the JSON body the document declares.
    const cut = fetch(`${server.url}/messages/send_to_contact`, { method: "POST", body: JSON.stringify({ msisdn: "447400123456", message: "hi", id: "cut" }) })
      .then(async (response) => ({ status: response.status, type: response.headers.get("content-type"), body: await response.text() }))
    await new Promise((resolve) => setTimeout(resolve, 300))
    server.process.kill("SIGTERM")
    const answer = await cut
    expect(answer).toMatchObject({ status: 503, type: expect.stringContaining("application/json") })
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: "SERVER_STOPPING", number: 3010, status: 503, message: expect.any(String), details: {} }
    })
    await server.exited
    holder.exec("ROLLBACK")
    holder.close()
    const lines = (await accessLines(server)).filter((line) => line.path === "/messages/send_to_contact")
    expect(lines.map(({ status, interrupted }) => ({ status, interrupted })).sort((a, b) => Number(a.status) - Number(b.status)))
      .toEqual([{ status: 499, interrupted: true }, { status: 503, interrupted: true }])
    await store.drop()
  }, 30_000)
})
