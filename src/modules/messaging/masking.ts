import { maskContactDetails } from "./contact-details/rules"

/** Who reads a message masked: the rule of issue 15 over contact-details/rules.ts's detection. */

export interface MessageReading {
  /** The text the reader gets. */
  readonly content: string
  /** Details were hidden from this reader. */
  readonly masked: boolean
  /** The original holds details the other participant does not see (shown to the sender and admins). */
  readonly maskedForRecipient: boolean
}

/**
 * A message as `reader` reads it: the sender and admins read the original (marked when the other
 * side gets it masked); the other participant of a private conversation reads it masked.
 */
export const readMessage = (
  message: { readonly senderId: string; readonly content: string },
  reader: { readonly id: string; readonly isAdmin: boolean },
  isPrivate: boolean
): MessageReading => {
  if (!isPrivate) return { content: message.content, masked: false, maskedForRecipient: false }
  const result = maskContactDetails(message.content)
  if (reader.isAdmin || reader.id === message.senderId)
    return { content: message.content, masked: false, maskedForRecipient: result.masked }
  return { content: result.text, masked: result.masked, maskedForRecipient: result.masked }
}
