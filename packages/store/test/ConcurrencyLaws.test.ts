/** The reliability laws over two real connections to one SQLite file: opt-out races, inbound races, overlapping imports. */
import * as Books from "./laws/Books.ts"
import * as ImportOverlap from "./laws/ImportOverlap.ts"
import * as InboundRace from "./laws/InboundRace.ts"
import * as OptOutRace from "./laws/OptOutRace.ts"

OptOutRace.run(Books.sqlite(), 25)
InboundRace.run(Books.sqlite(), 15)
ImportOverlap.run(Books.sqlite(), 15)
