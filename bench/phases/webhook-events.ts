/**
 * What webhook events cost a payment. Every payment's transaction carries its outbox event items (docs/webhooks.md).
 * The floor replays the captured transaction with and without them, in interleaved blocks: the difference is what
 * events cost DynamoDB.
 */
import { capture } from '../capture.ts';
import { SIZES } from '../config.ts';
import type { BenchContext } from '../context.ts';
import type { EndpointDef } from '../endpoint-defs.ts';
import { checkFloor, floorTemplate, prepareFloor, runFloorBlock, withoutOutboxItems } from '../floor.ts';
import { measuredBlock } from '../load.ts';
import { log } from '../progress.ts';
import type { ReplayTemplate } from '../replay.ts';
import * as stats from '../stats.ts';

/** Interleaved blocks of replays with and without the events: per block, the p50 ratio and the extra ms. */
async function replayBlocks(
  paymentEndpoint: EndpointDef,
  withEvents: ReplayTemplate,
  withoutEvents: ReplayTemplate,
  responseBytes: number,
) {
  const eventRatios: number[] = [];
  const eventMs: number[] = [];
  for (let b = 0; b < SIZES.blocks; b++) {
    await prepareFloor(`evw${b}`, withEvents, SIZES.comparisonPerBlock, responseBytes);
    await prepareFloor(`evn${b}`, withoutEvents, SIZES.comparisonPerBlock, responseBytes);
  }
  for (let b = 0; b < SIZES.blocks; b++) {
    const replay = (key: string) => () =>
      measuredBlock('floor', () => runFloorBlock(key, 1, SIZES.comparisonPerBlock, paymentEndpoint.make));
    const runWith = replay(`evw${b}`);
    const runWithout = replay(`evn${b}`);
    // Alternate which side goes first, as the endpoint blocks do.
    const first = await (b % 2 === 0 ? runWith : runWithout)();
    const second = await (b % 2 === 0 ? runWithout : runWith)();
    const [withBlock, withoutBlock] = b % 2 === 0 ? [first, second] : [second, first];
    eventRatios.push(stats.ratio(withBlock.figures.p50, withoutBlock.figures.p50));
    eventMs.push(withBlock.figures.p50 - withoutBlock.figures.p50);
  }
  return { eventRatios, eventMs };
}

export async function run(ctx: BenchContext): Promise<void> {
  ctx.phase(
    `Webhook events: a payment's transaction with its outbox items vs without (floor, c=1, ${SIZES.blocks} blocks)`,
  );
  const paymentEndpoint = ctx.endpoints.find((ep) => ep.name === 'add payment')!;
  // The add payment row's capture when it ran (the same request, its floor checked there); else one of its own.
  const paymentCapture =
    ctx.later.paymentCapture ?? (await capture(ctx.small, () => paymentEndpoint.make(0, 0), 201, SIZES.captures));
  const withEvents = floorTemplate(paymentCapture.template);
  const withoutEvents = floorTemplate(withoutOutboxItems(paymentCapture.template));
  const eventsCapacity = {
    with: (await checkFloor(withEvents, paymentCapture.template, 'ev-with')).floor,
    without: (await checkFloor(withoutEvents, paymentCapture.template, 'ev-without')).floor,
  };
  const { eventRatios, eventMs } = await replayBlocks(
    paymentEndpoint,
    withEvents,
    withoutEvents,
    paymentCapture.responseBytes,
  );
  const eventsCost = {
    wcuWith: eventsCapacity.with.wcu,
    wcuWithout: eventsCapacity.without.wcu,
    indexUnitsWith: eventsCapacity.with.indexUnits,
    indexUnitsWithout: eventsCapacity.without.indexUnits,
    p50Ratio: stats.spreadOf(eventRatios, 3),
    p50ExtraMs: stats.spreadOf(eventMs, 2),
  };
  ctx.results.webhookEvents = eventsCost;
  log(
    `  capacity: ${eventsCost.wcuWith} WCU (index ${eventsCost.indexUnitsWith}) with events, ${eventsCost.wcuWithout} WCU (index ${eventsCost.indexUnitsWithout}) without`,
  );
  log(
    `  latency p50 with ÷ without ${stats.formatSpread(eventsCost.p50Ratio)}, ${stats.formatSpread(eventsCost.p50ExtraMs)} ms more per payment`,
  );
}
