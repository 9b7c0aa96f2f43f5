import { routeWalk } from "../support/route-walk"

// Every route the visitor sees, in both languages at both widths: accessibility, layout and strings (test/support/route-walk.ts).
routeWalk(["visitor"])
