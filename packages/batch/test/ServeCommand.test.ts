/**
 * `smsbook keys` and `smsbook serve` as a user runs them: keys created, listed and revoked on a
 * SQLite file, a server answering with them, `--no-auth` refused off loopback.
 */
import { spawn, spawnSync } from "node:child_process"
import { once } from "node:events"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { DatabaseSync } from "node:sqlite"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, env as cleanEnv, servingAt } from "./cliProcess.ts"

/** The installed launcher, run as a user's shell runs it (`env -S` reads its flags), with this test's `node` first on PATH. */
const launcher = path.resolve(import.meta.dirname, "../bin/smsbook.js")
const pathWithNode = `${path.dirname(process.execPath)}${path.delimiter}${process.env["PATH"] ?? ""}`
let dir = ""
let env: NodeJS.ProcessEnv = {}

const smsbook = (...args: ReadonlyArray<string>) => {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: "utf8", env, timeout: 60_000 })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-serve-"))
  env = cleanEnv({ SMSBOOK_STORE: `sqlite:${path.join(dir, "book.db")}`, SMSBOOK_SHORT_NAME: "ACME" })
  // keys and serve open an existing book: only import and init create one.
  expect(smsbook("init", "--no-input").code).toBe(0)
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** A TCP port free on 127.0.0.1 a moment ago. */
const freePort = async (): Promise<number> => {
  const probe = net.createServer().listen(0, "127.0.0.1")
  await once(probe, "listening")
  const address = probe.address()
  probe.close()
  return typeof address === "object" && address !== null ? address.port : 0
}


describe("smsbook keys and smsbook serve", () => {
  it("creates, lists and revokes keys; the server accepts exactly the live ones", async () => {
    const created = JSON.parse(smsbook("keys", "create", "--name", "ci", "--json").stdout)
    expect(created).toMatchObject({ name: "ci", key: expect.stringMatching(/^smsbook_/) })
    const other = JSON.parse(smsbook("keys", "create", "--name", "old", "--json").stdout)
    expect(smsbook("keys", "revoke", other.id).code).toBe(0)
    const listed = JSON.parse(smsbook("keys", "list", "--json").stdout)
    expect(listed.map((key: { readonly name: string }) => key.name)).toEqual(["ci", "old"])
    expect(JSON.stringify(listed)).not.toContain(created.key)
    expect(smsbook("keys", "revoke", "0000000000000000").code).toBe(2)

    const server = spawn(process.execPath, [bin, "serve", "--port", "0", "--json"], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] })
    try {
      const url = await servingAt(server)
      const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } })
      expect((await fetch(`${url}/contacts`, as(created.key))).status).toBe(200)
      expect((await fetch(`${url}/contacts`, as(other.key))).status).toBe(401)
      expect((await fetch(`${url}/contacts`)).status).toBe(401)
      expect((await fetch(`${url}/health`)).status).toBe(200)
      // The process serving is the one started again with V8's old generation capped (the cap is a start-up flag).
      const children = fs.readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, "utf8").trim().split(" ")
      expect(children).toHaveLength(1)
      expect(fs.readFileSync(`/proc/${children[0]}/cmdline`, "utf8").split("\0")).toContain("--max-old-space-size=256")
    } finally {
      server.kill("SIGTERM")
    }
    // SIGTERM passed on: the server stopped, and the launching process exits as a stopped command does (128 + 15).
    const [code] = await once(server, "exit")
    expect(code).toBe(143)
  }, 300_000)

  it("SIGHUP (its terminal closed) stops the server as SIGTERM does, through the launcher: requests answered, exit 129", async () => {
    const server = spawn(process.execPath, [bin, "serve", "--port", "0", "--no-auth", "--json"], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] })
    let stderr = ""
    server.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
    const url = await servingAt(server)
    expect((await fetch(`${url}/health`)).status).toBe(200)
    server.kill("SIGHUP")
    const [code] = await once(server, "exit")
    expect(code, stderr).toBe(129)
    expect(stderr).toContain("interrupted by SIGHUP: the server stopped accepting requests")
  }, 300_000)

  it("a write waits --wait for another process's lock on the book, then answers STORE_FAILURE and writes nothing", async () => {
    const key = JSON.parse(smsbook("keys", "create", "--name", "wait", "--json").stdout).key
    const server = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--wait", "1"], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] })
    const holder = new DatabaseSync(path.join(dir, "book.db"))
    try {
      const url = await servingAt(server)
      holder.exec("BEGIN IMMEDIATE")
      const started = performance.now()
      const response = await fetch(`${url}/contacts/447400700002`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: "{}" })
      const waited = performance.now() - started
      expect(response.status).toBe(500)
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("STORE_FAILURE")
      // The lock wait of --wait (1 s), not the 10 minutes of the default.
      expect(waited).toBeGreaterThanOrEqual(900)
      expect(waited).toBeLessThan(30_000)
      holder.exec("ROLLBACK")
      expect((await fetch(`${url}/contacts/447400700002`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(404)
    } finally {
      holder.close()
      server.kill("SIGTERM")
    }
    await once(server, "exit")
  }, 120_000)

  it("the installed launcher gives V8 its heap caps when Node starts: serve runs in that one process", async () => {
    // Executed as a user's shell does: `env -S` reads the flags from the file's first line, and `node` is this one.
    const server = spawn(launcher, ["serve", "--port", "0", "--no-auth", "--json"], { cwd: dir, env: { ...env, PATH: pathWithNode }, stdio: ["ignore", "pipe", "pipe"] })
    try {
      const url = await servingAt(server)
      expect((await fetch(`${url}/health`)).status).toBe(200)
      const cmdline = fs.readFileSync(`/proc/${server.pid}/cmdline`, "utf8").split("\0")
      expect(cmdline).toEqual(expect.arrayContaining(["--max-semi-space-size=16", "--max-old-space-size=256"]))
      expect(fs.readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, "utf8").trim()).toBe("")
    } finally {
      server.kill("SIGTERM")
    }
    // Stopped by SIGTERM after draining: the exit of a stopped command (128 + 15), as through the launcher's child.
    const [code] = await once(server, "exit")
    expect(code).toBe(143)
  }, 120_000)

  it("a launcher killed with a signal it cannot pass on (kill -9) takes its server with it", async () => {
    const server = spawn(process.execPath, [bin, "serve", "--port", "0", "--no-auth", "--json"], { cwd: dir, env, stdio: ["ignore", "pipe", "ignore"] })
    const url = await servingAt(server)
    const [child] = fs.readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, "utf8").trim().split(" ")
    expect((await fetch(`${url}/health`)).status).toBe(200)
    server.kill("SIGKILL")
    await once(server, "exit")
    // Gone, or a zombie its new parent has not reaped yet: either way it no longer runs.
    const running = () => {
      try {
        return !/^\d+ \(.*\) Z /.test(fs.readFileSync(`/proc/${child}/stat`, "utf8"))
      } catch {
        return false
      }
    }
    const end = Date.now() + 30_000
    while (running() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(running()).toBe(false)
  }, 120_000)

  it("under npm, a server whose shell dies without passing SIGTERM on stops as on SIGTERM", async () => {
    // As `npx smsbook serve` runs it: npm → `sh -c` → the server; npm passes SIGTERM to the shell, which dies of it.
    const shell = spawn("sh", ["-c", `"$0" serve --port 0 --no-auth --json`, launcher], {
      cwd: dir,
      env: { ...env, PATH: pathWithNode, npm_command: "exec" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stderr = ""
    shell.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
    const url = await servingAt(shell)
    // The shell stays the server's parent, as npm's does (a shell that replaced itself would make this test moot).
    const [server] = fs.readFileSync(`/proc/${shell.pid}/task/${shell.pid}/children`, "utf8").trim().split(" ")
    expect(server).toMatch(/^\d+$/)
    expect((await fetch(`${url}/health`)).status).toBe(200)
    shell.kill("SIGTERM")
    try {
      // The server's own stderr stays open until it exits: its last line says it stopped as SIGTERM stops it.
      await Promise.race([once(shell.stderr, "end"), new Promise((resolve) => setTimeout(resolve, 30_000))])
      expect(stderr).toContain("interrupted by SIGTERM: the server stopped accepting requests")
      await expect(fetch(`${url}/health`)).rejects.toThrow()
    } finally {
      // Still serving (the test failed): stopped here rather than left running.
      if (server !== undefined && fs.existsSync(`/proc/${server}`)) process.kill(Number(server), "SIGKILL")
    }
  }, 120_000)

  it("under npm, a server a script starts in the background serves on when the script ends", async () => {
    const port = await freePort()
    // A CI step's script: the server in the background, the script going on (and ending) without it.
    const script = spawn("sh", ["-c", `"$0" serve --port ${port} --no-auth > /dev/null 2>&1 & echo $!; sleep 3`, launcher], {
      cwd: dir,
      env: { ...env, PATH: pathWithNode, npm_command: "run-script" },
      stdio: ["ignore", "pipe", "ignore"]
    })
    const [pid] = await once(script.stdout, "data")
    const server = Number(String(pid).trim())
    try {
      const url = `http://127.0.0.1:${port}`
      const end = Date.now() + 30_000
      while (Date.now() < end && !(await fetch(`${url}/health`).then((r) => r.ok, () => false))) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      await once(script, "exit")
      // Orphaned for a second now, four times the watch's period: still serving.
      await new Promise((resolve) => setTimeout(resolve, 1000))
      expect((await fetch(`${url}/health`)).status).toBe(200)
    } finally {
      process.kill(server, "SIGTERM")
    }
  }, 120_000)

  it("refuses --no-auth on a host other than loopback (exit 2), a country no number is read in, and serve without a short name", () => {
    const open = smsbook("serve", "--no-auth", "--host", "0.0.0.0")
    expect(open.code).toBe(2)
    expect(open.stderr).toContain("no-auth")
    // Refused before the server or the dispatcher starts, not at the first inbound STOP from a national number.
    for (const args of [["serve", "--port", "0", "--no-auth"], ["dispatch", "--once"]]) {
      const nowhere = smsbook(...args, "--default-country", "Narnia")
      expect(nowhere.code, args[0]).toBe(2)
      expect(nowhere.stderr, args[0]).toContain("--default-country")
    }
    const unnamed = spawnSync(process.execPath, [bin, "serve", "--port", "0"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...env, SMSBOOK_SHORT_NAME: "" },
      timeout: 60_000
    })
    expect(unnamed.status).toBe(2)
    expect(unnamed.stderr).toContain("short_name")
  })

  it("names the flag as typed in every refusal of serve and keys (exit 2)", () => {
    const refused = (args: ReadonlyArray<string>) => {
      const run = smsbook(...args, "--json")
      return { code: run.code, error: JSON.parse(run.stdout).error }
    }
    expect(refused(["serve", "--port", "99999"])).toMatchObject({ code: 2, error: { field: "--port" } })
    expect(refused(["serve", "--port", "0", "--no-auth", "--host", "0.0.0.0"])).toMatchObject({ code: 2, error: { field: "--no-auth" } })
    expect(refused(["keys", "create", "--name", ""])).toMatchObject({ code: 2, error: { field: "--name" } })
  })

  it("refuses to serve a memory: book with keys, which no other process could create (exit 2); with --no-auth it serves", async () => {
    const keyed = smsbook("serve", "--store", "memory:", "--port", "0", "--json")
    expect(keyed.code).toBe(2)
    expect(JSON.parse(keyed.stdout)).toMatchObject({ error: { field: "--store", message: expect.stringContaining("--no-auth") } })
    const server = spawn(process.execPath, [bin, "serve", "--store", "memory:", "--port", "0", "--no-auth", "--json"], { cwd: dir, env, stdio: ["ignore", "pipe", "ignore"] })
    try {
      const url = await servingAt(server)
      expect((await fetch(`${url}/contacts`)).status).toBe(200)
    } finally {
      server.kill("SIGTERM")
      await once(server, "exit")
    }
  }, 60_000)

  it("names the flag at fault when it cannot listen: a port already in use (exit 2)", async () => {
    const holder = net.createServer()
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve))
    try {
      const address = holder.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      const taken = smsbook("serve", "--port", String(port), "--json")
      expect(taken.code).toBe(2)
      expect(JSON.parse(taken.stdout)).toMatchObject({
        error: { code: "INVALID_SETTINGS", field: "--port", message: expect.stringContaining(`127.0.0.1:${port} is already in use`) }
      })
    } finally {
      holder.close()
    }
  })
})
