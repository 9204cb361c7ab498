import { Command } from 'commander';
import { generateData } from '../../services/generate/generate-data.ts';
import { loadFixtures } from '../../services/fixtures/load-fixtures.ts';
import { positiveInt } from '../arguments.ts';
import { commandConfig, println, withStore, type CliDeps } from '../context.ts';

export function fixturesCommand(deps: CliDeps): Command {
  const fixtures = new Command('fixtures').description('load documented JSON data sets (docs/fixtures.md)');

  fixtures
    .command('load')
    .description('validate FILE… and load them in one transaction; nothing is written when any is bad')
    .argument('<files...>', 'fixture JSON files, e.g. data/requirements.json fixtures/demo.json')
    .action(async (files: string[], _opts, cmd: Command) => {
      const config = commandConfig(deps, cmd);
      await withStore(config, async (store) => {
        const summary = await loadFixtures(store.db, files, deps.clock);
        const parts = Object.entries(summary).map(([k, n]) => `${n} ${k}`);
        println(deps.stdout, `loaded ${files.join(', ')}: ${parts.join(', ') || 'nothing'}`);
      });
    });

  fixtures
    .command('generate')
    .description('write a deterministic, realistic data set of any size straight into the store (for benchmarks)')
    .requiredOption('--crew <n>', 'crew members', positiveInt)
    .requiredOption('--vessels <n>', 'vessels', positiveInt)
    .requiredOption('--partners <n>', 'partners (every fifth from the fifth on is external)', positiveInt)
    .option('--docs-per-crew <n>', 'documents per crew member', positiveInt, 10)
    .option('--seed <n>', 'random seed; the same seed gives the same data', positiveInt, 1)
    .action(async (opts: { crew: number; vessels: number; partners: number; docsPerCrew: number; seed: number }, cmd: Command) => {
      const config = commandConfig(deps, cmd);
      const started = Date.now();
      const progress = deps.stderr.isTTY
        ? (done: number, total: number) => deps.stderr.write(`\rgenerating crew ${done}/${total} (${Math.round((100 * done) / total)}%)`)
        : undefined;
      await withStore(config, async (store) => {
        const counts = await generateData(store.db, { ...opts, onProgress: progress }, deps.clock);
        if (progress) deps.stderr.write('\n');
        const parts = Object.entries(counts).map(([k, n]) => `${n} ${k}`);
        println(deps.stdout, `generated ${parts.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      });
    });

  return fixtures;
}
