// A diff worker in a process of its own (`node --import tsx test/support/paused-diff-worker.ts <store url> <run id>`):
// joins the round open on the store, one crew member a page, and after the first page that wrote
// events prints `page <events>` and waits for ever, holding its share (its claim is renewed), for
// the test to kill it mid-share (test/sync/diff-split.test.ts).
import { joinDiffRound } from '../../src/sync/diff/join-round.ts';
import { NO_SPANS, type Spans } from '../../src/services/plumbing/spans.ts';
import { openStore } from '../../src/store/connect.ts';
import { diffDeps, START } from './change-world.ts';

const [url, runId] = process.argv.slice(2) as [string, string];
const store = await openStore(url);
const spans: Spans = {
  ...NO_SPANS,
  span: async (name, facts, step) => {
    const done = await NO_SPANS.span(name, facts, step);
    const events = Number(facts['svc.events_created'] ?? 0);
    if (name === 'svc.sync.diff_page' && events > 0) {
      process.stdout.write(`page ${events}\n`);
      await new Promise(() => {});
    }
    return done;
  },
};
const joined = await joinDiffRound(
  store.db,
  diffDeps(() => new Date(START), { runId, pageSize: 1, sharePollMs: 5, joinWaitMs: 60_000, spans }),
);
process.stdout.write(`finished ${JSON.stringify(joined.shares)}\n`);
await store.close();
