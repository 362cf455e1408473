/**
 * `--no-auth` only on a loopback host (`Server.isLoopback`): a host is loopback when it is one of the loopback forms
 * exactly; a name that merely starts like one (`127.0.0.1.example.com`, which any DNS can point anywhere) is not.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Server from "../src/Server.ts"

const octet = fc.integer({ min: 0, max: 255 })

const loopback = fc.oneof(
  fc.tuple(octet, octet, octet).map(([a, b, c]) => `127.${a}.${b}.${c}`),
  fc.constantFrom("localhost", "LocalHost", "::1", "[::1]", "::ffff:127.0.0.1")
)

// No digit: `127.0.0.1` then `0` is `127.0.0.10`, loopback too.
const tail = fc.constantFrom(".example.com", ".nip.io", ":8080", "x", "/", "-evil")

describe("Server.isLoopback", () => {
  it("law: every loopback form is loopback, with blanks around it", () => {
    fc.assert(fc.property(loopback, (host) => {
      expect(Server.isLoopback(host)).toBe(true)
      expect(Server.isLoopback(` ${host} `)).toBe(true)
    }))
  })

  it("law: a loopback form with more after it is not loopback (a name under it, a port, other characters)", () => {
    fc.assert(fc.property(loopback, tail, (host, more) => {
      expect(Server.isLoopback(host + more)).toBe(false)
    }))
  })

  it("other hosts are not loopback", () => {
    for (const host of ["0.0.0.0", "::", "", "128.0.0.1", "10.127.0.0.1", "localhost.example.com", "::ffff:10.0.0.1"]) {
      expect(Server.isLoopback(host), host).toBe(false)
    }
  })
})
