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
Install:
  bash  voicectl completion bash > ~/.local/share/bash-completion/completions/voicectl
        (or add  source <(voicectl completion bash)  to ~/.bashrc)
  zsh   voicectl completion zsh > "\${fpath[1]}/_voicectl"
        (or add  source <(voicectl completion zsh)  to ~/.zshrc, after compinit)
  fish  voicectl completion fish > ~/.config/fish/completions/voicectl.fish
Then open a new shell.`)
    .action(lazy(ctx, () => import('./print.js')));
}
