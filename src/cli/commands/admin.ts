import { Command } from 'commander';
import type { CliDeps } from '../context.ts';
import { addKeyCommands } from './admin-keys.ts';

export function adminCommand(deps: CliDeps): Command {
  const admin = new Command('admin').description('operator tasks: keys, webhook endpoints, dead letters');
  addKeyCommands(admin, deps);
  return admin;
}
