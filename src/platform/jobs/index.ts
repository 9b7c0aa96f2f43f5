// Durable background work: the JobQueue port, its two adapters and the cron reader of schedules.
export { type JobOptions, JobQueue, type JobQueueShape } from "./port"
export { InMemoryJobQueue, InMemoryJobQueueLive, type InMemoryJobQueueOptions } from "./memory"
export { jobsSchemaFor, PgBossJobQueue, PgBossJobQueueLive, type PgBossJobQueueOptions } from "./pg-boss"
export { type CronExpression, nextCronTime, parseCron } from "./schedules"
