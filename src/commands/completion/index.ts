import { Argument, Command } from 'commander';
import type { Context } from '../../context.js';
import { lazy } from '../shared.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function completionCommand(ctx: Context): Command {
  return new Command('completion')
    .description('Print a shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell to complete for').choices(SHELLS))
    .addHelpText('after', `
Install (then open a new shell):
  bash  mkdir -p ~/.local/share/bash-completion/completions
        voicectl completion bash > ~/.local/share/bash-completion/completions/voicectl
        (or add  eval "$(voicectl completion bash)"  to ~/.bashrc)
  zsh   mkdir -p ~/.zsh/completions
        voicectl completion zsh > ~/.zsh/completions/_voicectl
        and in ~/.zshrc, before compinit:  fpath=(~/.zsh/completions $fpath)
  fish  voicectl completion fish > ~/.config/fish/completions/voicectl.fish
`)
    .action(lazy(ctx, () => import('./print.js')));
}
