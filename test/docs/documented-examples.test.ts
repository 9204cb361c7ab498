import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { collectExamples, shuffled, type DocExample } from '../support/doc-examples.ts';
import { startDemoWorld, type DemoWorld } from '../support/demo-examples-world.ts';
import type { DemoState } from '../support/demo-state.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const documented = collectExamples(ROOT);
// Printed with every failure; SVC_EXAMPLES_SEED=<seed> replays the shuffled order.
const seed = Number(process.env.SVC_EXAMPLES_SEED ?? Math.floor(Math.random() * 2 ** 31));

describe('the documented examples run on the demo as written and leave it as they found it', () => {
  let world: DemoWorld;
  let initial: DemoState;

  before(async () => {
    world = await startDemoWorld(documented.background);
    initial = await world.state();
  });
  after(() => world?.close());

  it('every shell block of README.md, docs/ and examples/README.md is marked, and none is skipped without a reason', (t) => {
    // collectExamples threw already on a block without a marker; what is left to see is what is not run.
    for (const b of documented.skipped) t.diagnostic(`not run: ${b.where}: ${b.reason}`);
    assert.ok(documented.examples.length >= 20, `only ${documented.examples.length} examples found`);
    assert.ok(documented.background.length >= 1, 'no background command: the walkthrough starts a receiver');
    for (const b of documented.skipped) assert.ok(b.reason && b.reason.length >= 10, `${b.where}: say why it is not run`);
  });

  const runInOrder = async (examples: DocExample[], label: string) => {
    const receivedBefore = (world.backgroundOutput().match(/crew=crew_0014/g) ?? []).length;
    for (const example of examples) {
      const run = await world.run(example);
      const context = `${label}: ${example.where}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
      assert.equal(run.code, 0, `${context}\nexited ${run.code}`);
      const unexpected = run.statuses.filter((s) => s >= 400 && !example.answers.includes(s));
      assert.deepEqual(unexpected, [], `${context}\nanswered ${run.statuses.join(', ')}`);
      for (const s of example.answers)
        assert.ok(run.statuses.includes(s), `${context}\ndocumented to answer ${s}, answered ${run.statuses.join(', ')}`);
      // Checked after every example, so an example that leaves the demo changed is named, not the one it breaks.
      assert.deepEqual(await world.state(), initial, `${context}\nleft the demo changed`);
    }
    // The walkthrough's 9 events reached the demo's receiver, as it says they do.
    // The receiver prints each once it has answered, so its lines may come after the run that delivered them.
    await world.untilBackground(new RegExp(`(?:[\\s\\S]*?crew=crew_0014){${receivedBefore + 9}}`), 60_000);
  };

  it('in the order of the documents', async () => {
    await runInOrder(documented.examples, 'in document order');
  });

  it(`in a shuffled order (seed ${seed}; SVC_EXAMPLES_SEED replays it)`, async () => {
    const order = shuffled(documented.examples, seed);
    assert.notDeepEqual(
      order.map((e) => e.where),
      documented.examples.map((e) => e.where),
    );
    await runInOrder(order, `shuffled, seed ${seed}`);
  });
});
