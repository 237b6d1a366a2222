import { Command } from 'commander';
import type { Context } from '../../context.js';
import { group } from '../shared.js';
import { watchVerb } from '../watch/index.js';

export function campaignCommand(ctx: Context): Command {
  const campaign = group('campaign', 'Create, launch and follow calling campaigns', 'campaigns');

  // Initial version: only `watch` lives here so far. The campaign engineer (issue 4) adds
  // create, launch, list, get and contacts to this group.

  watchVerb(ctx, campaign.command('watch'));

  return campaign;
}
