import { Command } from 'commander';
import { adminCommand } from './commands/admin.ts';
import { complianceCommand } from './commands/compliance.ts';
import { dbCommand } from './commands/db.ts';
import { fixturesCommand } from './commands/fixtures.ts';
import { serveCommand } from './commands/serve.ts';
import { syncCommand } from './commands/sync.ts';
import type { CliDeps } from './context.ts';

/** The `svc` command line: one sub-command per file under commands/. */
export function buildProgram(deps: CliDeps): Command {
  const program = new Command('svc')
    .description('Partner Crew Compliance service: read API, compliance checks, signed webhooks')
    .version('0.1.0')
    .option('--db <url>', 'store URL: sqlite:PATH or postgres://… (default: $SVC_DATABASE_URL, else sqlite:data/svc.db)')
    .showHelpAfterError()
    .configureOutput({
      writeOut: (s) => deps.stdout.write(s),
      writeErr: (s) => deps.stderr.write(s),
    });
  program.addCommand(dbCommand(deps));
  program.addCommand(fixturesCommand(deps));
  program.addCommand(adminCommand(deps));
  program.addCommand(serveCommand(deps));
  program.addCommand(syncCommand(deps));
  program.addCommand(complianceCommand(deps));
  return program;
}
