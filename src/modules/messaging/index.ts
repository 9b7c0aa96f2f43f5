export {
  contentLength,
  decideStart,
  decideWrite,
  isParticipant,
  MAX_CONTENT_LENGTH,
  type MessageRecord,
  MESSAGES_PAGE_SIZE,
  pairKey,
  type Participant,
  toMarkRead,
  unreadCount,
  validateContent
} from "./domain"
export {
  type ConversationEvent,
  ConversationEventFeed,
  ConversationEvents,
  type ConversationRecord,
  ConversationRepository,
  type ConversationSummary,
  MessageRateLimiter,
  ServiceTopics
} from "./ports"
export { Messaging, MessagingLive } from "./service"
export { ConversationsApi, ConversationView, MessageView } from "./contract"
