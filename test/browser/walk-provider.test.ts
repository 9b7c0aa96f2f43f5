import { routeWalk } from "../support/route-walk"

// Every route the provider sees, in both languages at both widths: accessibility, layout and strings (test/support/route-walk.ts).
routeWalk(["provider"])
