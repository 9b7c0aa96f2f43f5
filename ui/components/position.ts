import { useEffect, useState } from "react"
import { knownPosition, listPosition } from "../catalogue/geolocation"
import type { Position } from "../catalogue/rules"

/**
 * The visitor's position for the list: asked once per visit in the background (3 s guard, 5 s
 * timeout, low accuracy); null until known. The list never waits for it.
 */
export const useListPosition = (): Position | null => {
  const [position, setPosition] = useState<Position | null>(knownPosition())
  useEffect(() => {
    if (position) return
    let live = true
    void listPosition().then((found) => live && found && setPosition(found))
    return () => {
      live = false
    }
  }, [position])
  return position
}
