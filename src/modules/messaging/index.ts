export { MessagingLive } from "./service"
export { ModerationLive } from "./moderation"
export { ConversationsApi, ConversationView, MessageView } from "./contract"
