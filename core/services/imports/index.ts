export { expireImportRecordsJob } from './expire-import-records.job.ts';
export { sniffFormat } from './format-sniffer.ts';
export { cleanFileName, ImportPreviewError, ImportPreviewService, type FormatPluginAccess, type ImportLimits, type UploadDescription } from './import-preview.service.ts';
export { ImportRecordError, ImportRecordService, MAX_STORED_ISSUES, type ImportIssue, type ImportRecordContents, type ImportRecordSummary } from './import-record.service.ts';
export { importCollectionIds, MAX_COLLECTION_ID_LENGTH } from './import-collection-ids.ts';
