/** The reliability laws over two real connections to one SQLite file: opt-out races, inbound races, overlapping imports. */
import { Laws } from "@smsbook/testing"
import * as Books from "./laws/Books.ts"

Laws.OptOutRace.run(Books.sqlite(), 25)
Laws.InboundRace.run(Books.sqlite(), 15)
Laws.ImportOverlap.run(Books.sqlite(), 15)
