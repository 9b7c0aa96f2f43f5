import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { findAll, findOne, single } from "../../../platform/rows"
import { pairKey } from "../domain"
import { ConversationRepository, type ConversationSummary } from "../ports"

// Rows as decoded (camelCase keys and int8 counts: see platform/database.ts).
const MessageRow = Schema.Struct({
  id: Schema.String,
  conversationId: Schema.String,
  senderId: Schema.String,
  content: Schema.String,
  createdAt: Schema.DateFromSelf,
  readAt: Schema.NullOr(Schema.DateFromSelf),
  hiddenAt: Schema.NullOr(Schema.DateFromSelf)
})
const ConversationRow = Schema.Struct({
  id: Schema.String,
  title: Schema.NullOr(Schema.String),
  serviceId: Schema.NullOr(Schema.String),
  participantIds: Schema.Array(Schema.String),
  lastMessageAt: Schema.DateFromSelf,
  createdAt: Schema.DateFromSelf
})
const SummaryRow = Schema.Struct({
  id: Schema.String,
  title: Schema.NullOr(Schema.String),
  serviceId: Schema.NullOr(Schema.String),
  lastMessageAt: Schema.DateFromSelf,
  createdAt: Schema.DateFromSelf,
  participants: Schema.Array(Schema.Struct({ id: Schema.String, firstName: Schema.String, lastName: Schema.String })),
  unreadCount: Schema.Number,
  lastId: Schema.NullOr(Schema.String),
  lastSenderId: Schema.NullOr(Schema.String),
  lastContent: Schema.NullOr(Schema.String),
  lastCreatedAt: Schema.NullOr(Schema.DateFromSelf),
  lastReadAt: Schema.NullOr(Schema.DateFromSelf),
  lastHiddenAt: Schema.NullOr(Schema.DateFromSelf),
  lastSenderFirstName: Schema.NullOr(Schema.String),
  total: Schema.Number
})
type SummaryRow = typeof SummaryRow.Type
const IdRow = Schema.Struct({ id: Schema.String })
const Count = Schema.Struct({ n: Schema.Number })
const Totals = Schema.Struct({ messages: Schema.Number, conversations: Schema.Number })

const toSummary = (row: SummaryRow): ConversationSummary => ({
  id: row.id,
  title: row.title,
  serviceId: row.serviceId,
  lastMessageAt: row.lastMessageAt,
  createdAt: row.createdAt,
  participants: row.participants,
  participantIds: row.participants.map((p) => p.id),
  unreadCount: row.unreadCount,
  lastMessage:
    row.lastId === null
      ? null
      : {
          id: row.lastId,
          conversationId: row.id,
          senderId: row.lastSenderId!,
          content: row.lastContent!,
          createdAt: row.lastCreatedAt!,
          readAt: row.lastReadAt,
          hiddenAt: row.lastHiddenAt,
          senderFirstName: row.lastSenderFirstName!
        }
})

export const ConversationRepositoryLive = Layer.effect(
  ConversationRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const messageColumns = sql.unsafe(`m.id, m.conversation_id, m.sender_id, m.content, m.created_at, m.read_at, m.hidden_at`)
    const conversationColumns = sql.unsafe(`c.id, c.title, c.service_id, c.last_message_at, c.created_at,
      ARRAY(SELECT p.user_id::text FROM conversation_participants p WHERE p.conversation_id = c.id ORDER BY p.joined_at, p.user_id) AS participant_ids`)

    /**
     * Conversations as `viewerId` sees them, in one statement: participants, the viewer's unread count
     * (partial index on unread rows), the last message with its sender's first name, and the total.
     */
    const summaries = (viewerId: string, where: ReturnType<typeof sql.unsafe>, limit: number, offset: number) =>
      findAll(
        "conversation summaries",
        SummaryRow,
        sql`
        SELECT c.id, c.title, c.service_id, c.last_message_at, c.created_at,
          (SELECT coalesce(json_agg(json_build_object('id', u.id, 'firstName', u.first_name, 'lastName', u.last_name)
             ORDER BY cp.joined_at, u.id), '[]'::json)
           FROM conversation_participants cp JOIN users u ON u.id = cp.user_id WHERE cp.conversation_id = c.id) AS participants,
          (SELECT count(*) FROM messages m
           WHERE m.conversation_id = c.id AND m.read_at IS NULL AND m.sender_id <> ${viewerId}) AS unread_count,
          lm.id AS last_id, lm.sender_id AS last_sender_id, lm.content AS last_content, lm.created_at AS last_created_at,
          lm.read_at AS last_read_at, lm.hidden_at AS last_hidden_at, lm.first_name AS last_sender_first_name,
          count(*) OVER () AS total
        FROM conversation_participants p
        JOIN conversations c ON c.id = p.conversation_id
        LEFT JOIN LATERAL (
          SELECT m.id, m.sender_id, m.content, m.created_at, m.read_at, m.hidden_at, u.first_name
          FROM messages m JOIN users u ON u.id = m.sender_id
          WHERE m.conversation_id = c.id ORDER BY m.seq DESC LIMIT 1
        ) lm ON true
        WHERE p.user_id = ${viewerId} AND ${where}
        ORDER BY c.last_message_at DESC, c.id DESC
        LIMIT ${limit} OFFSET ${offset}`
      )

    const findPair = (a: string, b: string, serviceId: string | null) =>
      findOne(
        "conversation of a pair",
        ConversationRow,
        sql`SELECT ${conversationColumns} FROM conversations c
        WHERE c.pair_key = ${pairKey(a, b)} AND c.service_id IS NOT DISTINCT FROM ${serviceId}::uuid`
      )

    return {
      find: (id) =>
        findOne("conversation", ConversationRow, sql`SELECT ${conversationColumns} FROM conversations c WHERE c.id = ${id}`).pipe(
          Effect.orDie
        ),
      findPair: (a, b, serviceId) => findPair(a, b, serviceId).pipe(Effect.orDie),
      create: ({ at, participantIds: [a, b], serviceId, title }) =>
        Effect.gen(function* () {
          // A concurrent request may create the same pair first: the unique key decides, the loser reads it.
          const inserted = yield* findAll(
            "new conversation",
            IdRow,
            sql`
            INSERT INTO conversations (title, service_id, pair_key, last_message_at, created_at)
            VALUES (${title}, ${serviceId}::uuid, ${pairKey(a, b)}, ${at}, ${at})
            ON CONFLICT DO NOTHING RETURNING id`
          )
          if (inserted.length === 0) {
            const existing = yield* findPair(a, b, serviceId)
            return { conversation: Option.getOrThrow(existing), created: false }
          }
          const id = inserted[0]!.id
          yield* sql`INSERT INTO conversation_participants (conversation_id, user_id, joined_at)
            VALUES (${id}, ${a}, ${at}), (${id}, ${b}, ${at})`
          const conversation = yield* single(
            "conversation",
            ConversationRow,
            sql`SELECT ${conversationColumns} FROM conversations c WHERE c.id = ${id}`
          )
          return { conversation, created: true }
        }).pipe(Effect.orDie),
      summary: (id, viewerId) =>
        summaries(viewerId, sql`c.id = ${id}`, 1, 0).pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toSummary)),
          Effect.orDie
        ),
      listFor: (userId, page) =>
        Effect.gen(function* () {
          const rows = yield* summaries(userId, sql`true`, page.limit, page.offset)
          // Past the last page there is no row to carry the total: count apart (rare).
          const total =
            rows[0]?.total ??
            (yield* single(
              "conversations count",
              Count,
              sql`SELECT count(*) AS n FROM conversation_participants WHERE user_id = ${userId}`
            )).n
          return { rows: rows.map(toSummary), total }
        }).pipe(Effect.orDie),
      addMessage: ({ at, content, conversationId, senderId }) =>
        Effect.gen(function* () {
          const message = yield* single(
            "new message",
            MessageRow,
            sql`
            INSERT INTO messages AS m (conversation_id, sender_id, content, created_at)
            VALUES (${conversationId}, ${senderId}, ${content}, ${at}) RETURNING ${messageColumns}`
          )
          yield* sql`UPDATE conversations SET last_message_at = GREATEST(last_message_at, ${at}) WHERE id = ${conversationId}`
          return message
        }).pipe(Effect.orDie),
      messages: (conversationId, page) =>
        Effect.gen(function* () {
          const rows = yield* findAll(
            "messages page",
            Schema.extend(MessageRow, Schema.Struct({ total: Schema.Number })),
            sql`
            SELECT ${messageColumns}, count(*) OVER () AS total FROM messages m
            WHERE m.conversation_id = ${conversationId} ORDER BY m.seq DESC LIMIT ${page.limit} OFFSET ${page.offset}`
          )
          const total =
            rows[0]?.total ??
            (yield* single("messages count", Count, sql`SELECT count(*) AS n FROM messages WHERE conversation_id = ${conversationId}`)).n
          return { rows: rows.map(({ total: _, ...message }) => message), total }
        }).pipe(Effect.orDie),
      markRead: (conversationId, readerId, at, onlyIds) =>
        findAll(
          "messages read",
          IdRow,
          onlyIds === undefined
            ? sql`UPDATE messages SET read_at = ${at}
              WHERE conversation_id = ${conversationId} AND sender_id <> ${readerId} AND read_at IS NULL RETURNING id`
            : sql`UPDATE messages SET read_at = ${at}
              WHERE conversation_id = ${conversationId} AND sender_id <> ${readerId} AND read_at IS NULL
                AND id = ANY (${onlyIds}::uuid[]) RETURNING id`
        ).pipe(
          Effect.map((rows) => rows.map((r) => r.id)),
          Effect.orDie
        ),
      findMessage: (id) =>
        findOne("message", MessageRow, sql`SELECT ${messageColumns} FROM messages m WHERE m.id = ${id}`).pipe(Effect.orDie),
      hideMessage: (id, at) =>
        sql`UPDATE messages SET hidden_at = ${at} WHERE id = ${id} AND hidden_at IS NULL`.pipe(Effect.asVoid, Effect.orDie),
      // The same unread rows as the list's counts, through the partial index of unread messages.
      unreadTotals: (userId) =>
        single(
          "unread totals",
          Totals,
          sql`SELECT count(*) AS messages, count(DISTINCT m.conversation_id) AS conversations
          FROM conversation_participants p
          JOIN messages m ON m.conversation_id = p.conversation_id AND m.read_at IS NULL AND m.sender_id <> ${userId}
          WHERE p.user_id = ${userId}`
        ).pipe(Effect.orDie),
      partnersOf: (userId) =>
        findAll(
          "conversation partners",
          IdRow,
          sql`SELECT DISTINCT o.user_id::text AS id FROM conversation_participants p
          JOIN conversation_participants o ON o.conversation_id = p.conversation_id AND o.user_id <> p.user_id
          WHERE p.user_id = ${userId}`
        ).pipe(
          Effect.map((rows) => rows.map((r) => r.id)),
          Effect.orDie
        )
    }
  })
)
