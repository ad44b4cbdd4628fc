export type { AppServices } from './app-services.ts';
export { createApp, type App, type AppOverrides, type AppRoles } from './create-app.ts';
export { JOB_CATALOGUE } from './job-catalogue.ts';
export { ENGINE_VERSION } from './version.ts';
