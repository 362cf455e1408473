/**
 * The reliability laws over two real connections to one SQLite file: opt-out races, inbound races, overlapping imports;
 * the races again with group commit (the server's).
 */
import { Laws } from "@smsbook/testing"
import * as Books from "./laws/Books.ts"

Laws.OptOutRace.run(Books.sqlite(), 25)
Laws.EditRace.run(Books.sqlite(), 15)
Laws.TagRace.run(Books.sqlite(), 10)
Laws.SuppressionRace.run(Books.sqlite(), 15)
Laws.InboundRace.run(Books.sqlite(), 15)
Laws.ImportOverlap.run(Books.sqlite(), 15)

// The same laws where every connection commits in groups, as `smsbook serve` does.
Laws.OptOutRace.run(Books.sqlite({ groupCommit: true }), 25)
Laws.InboundRace.run(Books.sqlite({ groupCommit: true }), 15)
