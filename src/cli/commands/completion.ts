import { Argument, Command } from 'commander';
import { commandTree } from '../completion/command-tree.ts';
import { bashScript, COMPLETION_SHELLS, fishScript, zshScript, type CompletionShell } from '../completion/scripts.ts';
import type { CliDeps } from '../context.ts';

const SCRIPTS = { bash: bashScript, zsh: zshScript, fish: fishScript } satisfies Record<CompletionShell, unknown>;

/** `svc completion bash|zsh|fish`: a completion script built from the command tree it belongs to. */
export function completionCommand(deps: CliDeps): Command {
  return new Command('completion')
    .description(
      'print a shell completion script (commands, options, the values an option accepts): ' +
        'source <(svc completion bash), source <(svc completion zsh), svc completion fish | source',
    )
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(COMPLETION_SHELLS))
    .action((shell: CompletionShell, _opts: unknown, cmd: Command) => {
      let root = cmd;
      while (root.parent) root = root.parent;
      deps.stdout.write(SCRIPTS[shell](commandTree(root)));
    });
}
