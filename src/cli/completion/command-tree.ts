import type { Command } from 'commander';

/** One option as completion sees it: its names, whether it takes a value, the values commander knows. */
export interface TreeOption {
  names: string[];
  takesValue: boolean;
  choices: readonly string[];
  description: string;
}

/** One command of the tree, `path` from the root's first sub-command (`['admin', 'list-keys']`; `[]` is svc). */
export interface TreeCommand {
  path: string[];
  description: string;
  subcommands: { name: string; description: string }[];
  options: TreeOption[];
  /** Values of the first argument when commander knows them (`svc completion bash|zsh|fish`). */
  argumentChoices: readonly string[];
}

/** Walks the commander tree, so completion always matches the commands and options that exist. */
export function commandTree(root: Command): TreeCommand[] {
  const out: TreeCommand[] = [];
  const walk = (cmd: Command, path: string[]) => {
    const options: TreeOption[] = cmd.options
      .filter((option) => !option.hidden)
      .map((option) => ({
        names: [option.long, option.short].filter((name): name is string => Boolean(name)),
        takesValue: option.required || option.optional,
        choices: option.argChoices ?? [],
        description: option.description,
      }));
    options.push({ names: ['--help', '-h'], takesValue: false, choices: [], description: 'display help for command' });
    out.push({
      path,
      description: cmd.description(),
      subcommands: cmd.commands.map((c) => ({ name: c.name(), description: c.description() })),
      options,
      argumentChoices: cmd.registeredArguments[0]?.argChoices ?? [],
    });
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  walk(root, []);
  return out;
}
