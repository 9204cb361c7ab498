import { Command } from 'commander';
import { adminCommand } from './commands/admin.ts';
import { complianceCommand } from './commands/compliance.ts';
import { completionCommand } from './commands/completion.ts';
import { configCommand } from './commands/config.ts';
import { dbCommand } from './commands/db.ts';
import { fixturesCommand } from './commands/fixtures.ts';
import { ingestCommand } from './commands/ingest.ts';
import { serveCommand } from './commands/serve.ts';
import { syncCommand } from './commands/sync.ts';
import type { CliDeps } from './context.ts';

/** `svc admin register-webhook`: the words a user types to reach the command. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let at: Command | null = cmd; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/**
 * Settings commander does not pass on to commands added with addCommand: every command, however
 * deep, throws instead of exiting (runCli maps usage errors to 64) and writes to the injected streams.
 */
function configureTree(cmd: Command, deps: CliDeps): void {
  // One line and where to look, not the whole help after the error (issue 22).
  cmd
    .exitOverride()
    .showHelpAfterError(`(${commandPath(cmd)} --help lists what it accepts)`)
    .configureOutput({
      writeOut: (s) => deps.stdout.write(s),
      writeErr: (s) => deps.stderr.write(s),
    });
  for (const sub of cmd.commands) configureTree(sub, deps);
}

/** The `svc` command line: one sub-command per file under commands/. */
export function buildProgram(deps: CliDeps): Command {
  const program = new Command('svc')
    .description('Partner Crew Compliance service: read API, compliance checks, signed webhooks')
    .version('0.1.0')
    .option('--db <url>', 'store URL: sqlite:PATH or postgres://… (default: $SVC_DATABASE_URL, else sqlite:data/svc.db)');
  program.addCommand(dbCommand(deps));
  program.addCommand(fixturesCommand(deps));
  program.addCommand(ingestCommand(deps));
  program.addCommand(adminCommand(deps));
  program.addCommand(serveCommand(deps));
  program.addCommand(syncCommand(deps));
  program.addCommand(complianceCommand(deps));
  program.addCommand(configCommand(deps));
  program.addCommand(completionCommand(deps));
  configureTree(program, deps);
  return program;
}
