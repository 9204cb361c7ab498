import { Command } from 'commander';
import { loadFixtures } from '../../services/fixtures/load-fixtures.ts';
import { commandConfig, println, withStore, type CliDeps } from '../context.ts';

export function fixturesCommand(deps: CliDeps): Command {
  const fixtures = new Command('fixtures').description('load documented JSON data sets (docs/fixtures.md)');

  fixtures.command('load')
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

  return fixtures;
}
