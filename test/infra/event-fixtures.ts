import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../infra/stack.ts';

export const eventFixturePath = (routeName: string) => path.join(REPO_ROOT, 'test/events', `${routeName}.json`);

export const loadEvent = (routeName: string) =>
  JSON.parse(readFileSync(eventFixturePath(routeName), 'utf8')) as Record<string, any>;
