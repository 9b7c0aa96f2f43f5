import type { MessageDescriptor } from "@lingui/core"
import { atom } from "jotai"
import { store } from "./session"

export type ToastKind = "info" | "success" | "warning" | "error"
export interface Toast {
  readonly id: number
  readonly kind: ToastKind
  /** A descriptor is translated when shown, so an open toast follows a language switch. */
  readonly text: MessageDescriptor | string
}

/** Auto-dismiss delay; the toast component pauses it while hovered or focused. */
export const TOAST_MS = 5000
export const toastsAtom = atom<ReadonlyArray<Toast>>([])

let nextId = 1

export const dismissToast = (id: number) => store.set(toastsAtom, (list) => list.filter((toast) => toast.id !== id))

export const showToast = (kind: ToastKind, text: MessageDescriptor | string) => {
  const id = nextId++
  // The same message twice in a row (parallel failing calls) is shown once.
  const list = store.get(toastsAtom).filter((toast) => JSON.stringify(toast.text) !== JSON.stringify(text))
  store.set(toastsAtom, [...list, { id, kind, text }].slice(-4))
}
