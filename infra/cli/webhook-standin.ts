/** TEMPORARY stand-in for i12a (drop at merge): `webhook:set -- --company-id N --url URL`. */
import { standinSetEndpoint } from '#shared/store/webhook-standin';
import { chooseTarget, connectTarget } from './target';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const args = process.argv.slice(2);
const value = (name: string) => args[args.indexOf(name) + 1];
const companyId = Number(value('--company-id'));
const url = value('--url')!;
const connection = await connectTarget(chooseTarget());
const secret = await standinSetEndpoint(companyId, url);
await connection.close();
process.stdout.write(`${JSON.stringify({ company_id: companyId, url, secret })}\n`, () => process.exit(0));
