/** One Powertools Logger for every function (structured JSON; never secret keys or request bodies). */
import { Logger } from '@aws-lambda-powertools/logger';
import { loadConfig } from './config';

export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'invoicing',
  logLevel: loadConfig().logLevel as never,
});
