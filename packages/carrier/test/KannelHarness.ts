/**
 * Kannel for the end-to-end suites: bearerbox bound over SMPP to a test SMSC, smsbox with a
 * sendsms-user and a get-url, configured in a temporary folder on 127.0.0.1 and stopped by pid.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as path from "node:path"
import * as TestSmsc from "./TestSmsc.ts"

const binary = (name: string): string | undefined => {
  for (const dir of ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"]) {
    const file = path.join(dir, name)
    if (fs.existsSync(file)) return file
  }
  return undefined
}
const bearerbox = binary("bearerbox")
const smsbox = binary("smsbox")

/** Whether Debian's kannel is installed (`.ci/run` installs it). */
export const installed = bearerbox !== undefined && smsbox !== undefined
/** Under CI the suites never skip: a missing Kannel fails them. */
export const inCi = process.env["CI"] === "true"
/** The suites run where Kannel is installed, and always under CI. */
export const runs = installed || inCi
if (!runs) console.warn("Kannel interop tests skipped: install Debian's kannel (apt-get install -y kannel)")

/** A free port of 127.0.0.1 (bound, then closed again) for Kannel's boxes. */
export const freePort = TestSmsc.closedPort

export const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port })
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })

export const waitFor = async (check: () => boolean | Promise<boolean>, what: string | (() => string), ms = 20_000) => {
  const until = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${typeof what === "string" ? what : what()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Stops a child by its pid: SIGTERM, then SIGKILL after 5 s. */
export const stop = async (child: ChildProcess | undefined) => {
  if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once("exit", resolve))
  process.kill(child.pid, "SIGTERM")
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))])
  if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, "SIGKILL")
}

export interface Kannel {
  readonly sendsmsPort: number
  /** The sendsms-user smsbox knows. */
  readonly username: string
  readonly password: string
  readonly stop: () => Promise<void>
}

/**
 * Starts bearerbox (bound to the SMSC at `smscPort`) and smsbox in `dir`, whose sms-service calls
 * `getUrl` for every inbound SMS; resolves once Kannel is bound. smsbox's answer to a get-url is
 * never sent back as an SMS (`max-messages = 0`).
 */
export const start = async (options: {
  readonly dir: string
  readonly smscPort: number
  readonly getUrl: string
  readonly isBound: () => boolean
  /** More lines of the smsbox group (`http-request-retry`, …). */
  readonly smsbox?: string
}): Promise<Kannel> => {
  if (!installed) throw new Error("CI=true but Kannel is not installed: .ci/run must apt-get install -y kannel (bearerbox, smsbox)")
  const [adminPort, boxPort, sendsmsPort] = [await freePort(), await freePort(), await freePort()]
  const config = path.join(options.dir, "kannel.conf")
  fs.writeFileSync(config, `
group = core
admin-port = ${adminPort}
admin-interface = 127.0.0.1
admin-password = smsbook
admin-allow-ip = "127.0.0.1"
smsbox-port = ${boxPort}
smsbox-interface = 127.0.0.1
box-allow-ip = "127.0.0.1"
log-file = "${path.join(options.dir, "bearerbox.log")}"
log-level = 1
dlr-storage = internal

group = smsc
smsc = smpp
smsc-id = testsmsc
host = 127.0.0.1
port = ${options.smscPort}
transceiver-mode = true
smsc-username = kannel
smsc-password = secret
system-type = smsbook
source-addr-ton = 5
source-addr-npi = 0
dest-addr-ton = 1
dest-addr-npi = 1
msg-id-type = 0x00
enquire-link-interval = 30
reconnect-delay = 1

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = ${boxPort}
sendsms-port = ${sendsmsPort}
sendsms-interface = 127.0.0.1
log-file = "${path.join(options.dir, "smsbox.log")}"
log-level = 1
${options.smsbox ?? ""}

group = sendsms-user
username = smsbook
password = secret
concatenation = true
max-messages = 5

group = sms-service
keyword = default
get-url = "${options.getUrl}"
max-messages = 0
catch-all = true
`)
  const bearer = spawn(bearerbox ?? "bearerbox", [config], { cwd: options.dir, stdio: "ignore" })
  let box: ChildProcess | undefined
  const stopAll = async () => {
    await stop(box)
    await stop(bearer)
  }
  try {
    await waitFor(() => accepts(boxPort), "bearerbox's box port")
    box = spawn(smsbox ?? "smsbox", [config], { cwd: options.dir, stdio: "ignore" })
    await waitFor(() => accepts(sendsmsPort), "smsbox's sendsms port")
    await waitFor(options.isBound, "Kannel's bind")
  } catch (error) {
    await stopAll()
    throw error
  }
  return { sendsmsPort, username: "smsbook", password: "secret", stop: stopAll }
}
