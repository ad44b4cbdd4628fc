export { renderSharePage, SHARE_PAGE_CSP } from './share-page.ts';
export { buildShareSnapshot, ShareTooLargeError, type ShareSnapshotLimits } from './share-snapshot.ts';
export { hashShareToken, MAX_LISTED_SHARES, ShareError, ShareService, type NewShare, type ShareStatus, type ShareSummary } from './share.service.ts';
export { purgeEndedSharesJob } from './purge-ended-shares.job.ts';
export { RECIPIENT_OWNER_PREFIX, ShareRecipientService, type ShareRecipient } from './share-recipient.service.ts';
