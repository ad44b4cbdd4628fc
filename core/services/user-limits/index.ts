export { UserLimitReached, USER_LIMIT_VARIABLES, type UserLimitName } from './user-limit-reached.ts';
export { UserLimits } from './user-limits.service.ts';
export { deleteExpiredUsage } from './user-limits.sql.ts';
